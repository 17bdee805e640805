import { Input } from 'antd';
import { useId } from 'react';

/** The file-name box of the export pages (Excel and Zip): the name the download is saved under. */
export function FileNameField({
  value,
  onChange,
  placeholder,
}: {
  value: string;
  onChange: (name: string) => void;
  placeholder: string;
}) {
  const id = useId();
  return (
    <span className="excel-field">
      <label htmlFor={id}>文件名</label>
      <Input
        id={id}
        className="excel-name"
        placeholder={placeholder}
        maxLength={80}
        allowClear
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </span>
  );
}
