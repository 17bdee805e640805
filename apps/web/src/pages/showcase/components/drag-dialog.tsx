import { Button, Modal, Select, Table } from 'antd';
import { useRef, useState } from 'react';
import Draggable, { type DraggableData, type DraggableEvent } from 'react-draggable';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { type Bounds, viewportBounds } from './widgets/drag-bounds';
import '../showcase.css';
import './widgets.css';

const ADDRESSES = [
  { key: '1', date: '2024-05-02', name: '王小虎', address: '上海市普陀区金沙江路 1518 弄' },
  { key: '2', date: '2024-05-04', name: '李小红', address: '北京市朝阳区建国路 88 号' },
  { key: '3', date: '2024-05-01', name: '张小明', address: '广州市天河区体育西路 191 号' },
];

const REGIONS = ['上海', '北京', '广州', '深圳'].map((r) => ({ value: r, label: r }));

export default function DragDialogPage() {
  const [open, setOpen] = useState(false);
  // Each opening starts centred: a new Draggable (its position is its own state).
  const [opening, setOpening] = useState(0);
  const [region, setRegion] = useState<string>();
  const [bounds, setBounds] = useState<Bounds>({ left: 0, top: 0, right: 0, bottom: 0 });
  const box = useRef<HTMLDivElement>(null);

  const onStart = (_: DraggableEvent, data: DraggableData) => {
    const rect = box.current?.getBoundingClientRect();
    if (!rect) return;
    const { clientWidth, clientHeight } = document.documentElement;
    setBounds(viewportBounds(rect, data.x, data.y, clientWidth, clientHeight));
  };

  return (
    <div className="page showcase-page" data-testid="drag-dialog-page">
      <PageHeader subtitle="按住对话框的标题栏拖动；对话框始终留在窗口内" />
      <Card>
        <Button
          type="primary"
          onClick={() => {
            setOpening((n) => n + 1);
            setOpen(true);
          }}
        >
          打开可拖拽对话框
        </Button>
        <p className="showcase-muted drag-dialog-note">
          antd 的 Modal 通过 <code>modalRender</code> 交给
          react-draggable，拖动把手是标题栏，边界按窗口大小计算。
        </p>
      </Card>
      <Modal
        open={open}
        title={<div className="drag-dialog-handle">收货地址（拖动标题栏移动）</div>}
        onCancel={() => setOpen(false)}
        onOk={() => setOpen(false)}
        okText="确定"
        cancelText="关闭"
        width={640}
        modalRender={(modal) => (
          <Draggable
            key={opening}
            nodeRef={box}
            handle=".drag-dialog-handle"
            bounds={bounds}
            onStart={onStart}
          >
            <div ref={box} data-testid="drag-dialog">
              {modal}
            </div>
          </Draggable>
        )}
      >
        <Select
          aria-label="地区"
          className="drag-dialog-select"
          placeholder="选择地区"
          options={REGIONS}
          value={region}
          onChange={setRegion}
          allowClear
        />
        <Table
          size="small"
          pagination={false}
          scroll={{ x: 480 }}
          dataSource={ADDRESSES}
          columns={[
            { title: '日期', dataIndex: 'date', width: 110 },
            { title: '姓名', dataIndex: 'name', width: 90 },
            { title: '地址', dataIndex: 'address' },
          ]}
        />
      </Modal>
    </div>
  );
}
