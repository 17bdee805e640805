import { Form, type FormInstance, Modal } from 'antd';
import type { ReactNode } from 'react';

/**
 * A dialog that is one form: 确定 submits it (so the fields' rules run first), the button spins
 * while the save is under way, and the fields are rebuilt each time the dialog opens.
 */
export function ModalForm<V extends object>({
  title,
  okText = '保存',
  form,
  initialValues,
  pending,
  onSubmit,
  onClose,
  children,
}: {
  title: ReactNode;
  okText?: string;
  /** The caller's form when it needs to read or set fields; one is made otherwise. */
  form?: FormInstance<V>;
  initialValues?: Partial<V>;
  /** The save under way (a mutation's isPending): the OK button shows it and can't be pressed twice. */
  pending: boolean;
  onSubmit(values: V): void;
  onClose(): void;
  children: ReactNode;
}) {
  const [own] = Form.useForm<V>();
  const instance = form ?? own;
  return (
    <Modal
      open
      title={title}
      okText={okText}
      onOk={() => instance.submit()}
      onCancel={onClose}
      confirmLoading={pending}
      destroyOnHidden
    >
      <Form<V> form={instance} layout="vertical" initialValues={initialValues} onFinish={onSubmit}>
        {children}
      </Form>
    </Modal>
  );
}
