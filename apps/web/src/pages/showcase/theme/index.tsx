import { SearchOutlined } from '@ant-design/icons';
import {
  Alert,
  Button,
  Checkbox,
  ColorPicker,
  Input,
  Pagination,
  Progress,
  Radio,
  Slider,
  Switch,
  Tag,
} from 'antd';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { useSettings } from '../../../stores/settings';
import { palette, THEME_PRESETS } from '../../../utils/theme';
import '../showcase.css';
import './theme.css';

/**
 * Theme: the settings drawer's one theme colour (stores/settings.ts), switched here and shown on live
 * components; every accent derives from it (utils/theme.ts), the sidebar and tabs included.
 */
export default function ThemePage() {
  const theme = useSettings((s) => s.theme);
  const change = useSettings((s) => s.change);
  const p = palette(theme);
  return (
    <div className="page showcase-page" data-testid="theme-page">
      <PageHeader subtitle="换一个主题色，整个控制台（按钮、链接、标签页、侧栏选中项）立即跟着变；与右侧“布局设置”里的主题色是同一个" />
      <Card title="主题色">
        <div className="showcase-row">
          {THEME_PRESETS.map((c) => (
            <button
              key={c}
              type="button"
              className={`theme-swatch${theme === c ? ' theme-swatch-active' : ''}`}
              style={{ background: c }}
              aria-label={`换成 ${c}`}
              aria-pressed={theme === c}
              onClick={() => change('theme', c)}
            />
          ))}
          <ColorPicker
            value={theme}
            disabledAlpha
            showText
            onChangeComplete={(c) => change('theme', c.toHexString())}
            aria-label="自定义主题色"
          />
        </div>
        <div className="theme-palette" data-testid="theme-palette">
          {(
            [
              ['主色', p.primary],
              ['悬停', p.hover],
              ['浅色', p.light],
              ['侧栏选中', p.onDark],
            ] as const
          ).map(([label, color]) => (
            <div key={label} className="theme-chip">
              <span style={{ background: color }} />
              {label} <code>{color}</code>
            </div>
          ))}
        </div>
      </Card>
      <Card title="组件效果">
        <div className="theme-demo">
          <div className="showcase-row">
            <Button type="primary">主要按钮</Button>
            <Button>默认按钮</Button>
            <Button type="dashed">虚线按钮</Button>
            <Button type="link">链接按钮</Button>
            <Button type="primary" icon={<SearchOutlined />}>
              搜索
            </Button>
          </div>
          <div className="showcase-row">
            <Tag color={theme}>标签</Tag>
            <Tag color="processing">进行中</Tag>
            <Switch defaultChecked aria-label="开关" />
            <Checkbox defaultChecked>复选框</Checkbox>
            <Radio.Group
              defaultValue="a"
              optionType="button"
              options={['a', 'b', 'c'].map((v) => ({ label: `选项 ${v.toUpperCase()}`, value: v }))}
            />
          </div>
          <Input placeholder="输入框获得焦点时的描边" style={{ maxWidth: 320 }} />
          <Slider defaultValue={40} style={{ maxWidth: 320 }} />
          <Progress percent={68} style={{ maxWidth: 420 }} />
          <Pagination defaultCurrent={3} total={120} showSizeChanger={false} />
          <Alert type="info" showIcon message="信息提示也使用主题色。" />
        </div>
      </Card>
    </div>
  );
}
