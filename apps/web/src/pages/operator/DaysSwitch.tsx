import { Segmented } from 'antd';

const RANGES = [7, 30, 90] as const;

/** How many days a trend chart covers: 7, 30 or 90. */
export function DaysSwitch({ value, onChange }: { value: number; onChange(days: number): void }) {
  return (
    <Segmented<number>
      size="small"
      options={RANGES.map((d) => ({ value: d, label: `${d} 天` }))}
      value={value}
      onChange={onChange}
    />
  );
}
