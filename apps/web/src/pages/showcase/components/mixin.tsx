import { DownloadOutlined, SearchOutlined } from '@ant-design/icons';
import {
  Button,
  Checkbox,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Radio,
  Select,
  Space,
  Switch,
  Tag,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { Card } from '../../../components/Card';
import { useFeedback } from '../../../components/feedback';
import { PageHeader } from '../../../components/PageHeader';
import '../showcase.css';
import './widgets.css';

interface Signup {
  name: string;
  phone: string;
  email?: string;
  city: string;
  date: Dayjs;
  seats: number;
  kind: 'online' | 'offline';
  topics: string[];
  notify: boolean;
  agree: boolean;
}

const CITIES = ['北京', '上海', '广州', '深圳', '杭州'].map((c) => ({ value: c, label: c }));
const TOPICS = [
  { value: 'api', label: '接口对接' },
  { value: 'callback', label: '回调配置' },
  { value: 'billing', label: '套餐与计费' },
];

export default function MixinPage() {
  const [form] = Form.useForm<Signup>();
  const { message } = useFeedback();
  const [loading, setLoading] = useState(false);

  const submit = (values: Signup) => {
    void message.success(`报名成功：${values.name}，${values.city}，${values.date.format('YYYY-MM-DD')}`);
    form.resetFields();
  };

  return (
    <div className="page showcase-page" data-testid="mixin-page">
      <PageHeader subtitle="常用表单控件与按钮：提交时逐项校验，全部填好后提示成功" />
      <Card title="活动报名（表单校验）">
        <Form<Signup>
          form={form}
          layout="vertical"
          className="mixin-form"
          aria-label="活动报名"
          initialValues={{ seats: 1, kind: 'online', topics: [], notify: true, agree: false }}
          onFinish={submit}
          onFinishFailed={() => void message.error('请按提示修改表单')}
          scrollToFirstError
        >
          <div className="mixin-grid">
            <Form.Item
              name="name"
              label="姓名"
              rules={[
                { required: true, whitespace: true, message: '请输入姓名' },
                { max: 20, message: '姓名不能超过 20 个字' },
              ]}
            >
              <Input placeholder="如：张三" allowClear />
            </Form.Item>
            <Form.Item
              name="phone"
              label="手机号"
              rules={[
                { required: true, message: '请输入手机号' },
                { pattern: /^1[3-9]\d{9}$/, message: '请输入 11 位手机号' },
              ]}
            >
              <Input placeholder="11 位手机号" inputMode="numeric" maxLength={11} />
            </Form.Item>
            <Form.Item
              name="email"
              label="邮箱（选填）"
              rules={[{ type: 'email', message: '邮箱格式不正确' }]}
            >
              <Input placeholder="name@example.com" />
            </Form.Item>
            <Form.Item name="city" label="城市" rules={[{ required: true, message: '请选择城市' }]}>
              <Select options={CITIES} placeholder="请选择" allowClear />
            </Form.Item>
            <Form.Item name="date" label="参加日期" rules={[{ required: true, message: '请选择参加日期' }]}>
              <DatePicker style={{ width: '100%' }} placeholder="请选择日期" />
            </Form.Item>
            <Form.Item name="seats" label="人数" rules={[{ required: true, message: '请输入人数' }]}>
              <InputNumber min={1} max={10} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </div>
          <Form.Item name="kind" label="参加方式">
            <Radio.Group
              options={[
                { value: 'online', label: '线上' },
                { value: 'offline', label: '线下' },
              ]}
            />
          </Form.Item>
          <Form.Item
            name="topics"
            label="关注的主题"
            rules={[{ type: 'array', min: 1, message: '请至少选择一个主题' }]}
          >
            <Checkbox.Group options={TOPICS} />
          </Form.Item>
          <Form.Item name="notify" label="短信提醒" valuePropName="checked">
            <Switch checkedChildren="开" unCheckedChildren="关" />
          </Form.Item>
          <Form.Item
            name="agree"
            valuePropName="checked"
            rules={[
              {
                validator: (_, value) =>
                  value ? Promise.resolve() : Promise.reject(new Error('请阅读并同意活动须知')),
              },
            ]}
          >
            <Checkbox>我已阅读并同意活动须知</Checkbox>
          </Form.Item>
          <div className="form-actions">
            <Button type="primary" htmlType="submit">
              提交
            </Button>
            <Button htmlType="button" onClick={() => form.resetFields()}>
              重置
            </Button>
          </div>
        </Form>
      </Card>
      <Card title="按钮">
        <Space wrap>
          <Button type="primary">主要按钮</Button>
          <Button>默认按钮</Button>
          <Button type="dashed">虚线按钮</Button>
          <Button type="text">文字按钮</Button>
          <Button type="link">链接按钮</Button>
          <Button danger>危险按钮</Button>
          <Button type="primary" danger>
            危险主要
          </Button>
          <Button type="primary" ghost>
            幽灵按钮
          </Button>
          <Button disabled>禁用</Button>
          <Button type="primary" icon={<SearchOutlined />}>
            搜索
          </Button>
          <Button shape="circle" icon={<DownloadOutlined />} aria-label="下载" />
          <Button
            type="primary"
            loading={loading}
            onClick={() => {
              setLoading(true);
              window.setTimeout(() => setLoading(false), 1500);
            }}
          >
            {loading ? '加载中' : '点击加载'}
          </Button>
        </Space>
        <div className="showcase-row mixin-tags">
          <Tag color="blue">标签</Tag>
          <Tag color="green">成功</Tag>
          <Tag color="orange">警告</Tag>
          <Tag color="red">错误</Tag>
        </div>
      </Card>
    </div>
  );
}
