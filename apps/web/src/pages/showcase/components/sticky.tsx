import { Button, DatePicker, Select } from 'antd';
import { type CSSProperties, type RefObject, useLayoutEffect, useRef, useState } from 'react';
import { Card } from '../../../components/Card';
import { useFeedback } from '../../../components/feedback';
import { PageHeader } from '../../../components/PageHeader';
import { useStuck } from './widgets/useStuck';
import '../showcase.css';
import './widgets.css';

const PLATFORMS = [
  { value: 'a-platform', label: 'A 平台' },
  { value: 'b-platform', label: 'B 平台' },
  { value: 'c-platform', label: 'C 平台' },
];

const PARAGRAPHS = Array.from({ length: 24 }, (_, i) => ({
  id: `p${i + 1}`,
  title: `第 ${i + 1} 段`,
  text:
    i % 2 === 0
      ? '吸顶栏常用于长表单或长文章的操作区：页面向下滚动时，操作按钮一直留在内容区顶部，随时可以保存或发布，不用再滚回页首。'
      : '它的做法是在吸顶栏前放一个高度为零的哨兵元素，由 IntersectionObserver 观察：哨兵滚出内容区顶部时，吸顶栏固定在那里并加上阴影；滚回来时恢复原位。',
}));

/**
 * While stuck: the bar fixed at the content area's top, as wide as the place it left, and that
 * place kept at the bar's height so the content below does not jump.
 */
function useFixedBox(placeholder: RefObject<HTMLDivElement | null>, stuck: boolean, top: number) {
  const [box, setBox] = useState<{ bar: CSSProperties; place: CSSProperties }>({ bar: {}, place: {} });
  useLayoutEffect(() => {
    const el = placeholder.current;
    if (!el || !stuck) {
      setBox({ bar: {}, place: {} });
      return;
    }
    // Still in the flow here (the fixed style comes with this effect's update): its height is the bar's.
    const height = el.getBoundingClientRect().height;
    const measure = () => {
      const rect = el.getBoundingClientRect();
      setBox({ bar: { position: 'fixed', top, left: rect.left, width: rect.width }, place: { height } });
    };
    measure();
    // The sidebar opening or closing moves and resizes the content area.
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [placeholder, stuck, top]);
  return box;
}

export default function StickyPage() {
  const { message } = useFeedback();
  const sentinel = useRef<HTMLDivElement>(null);
  const placeholder = useRef<HTMLDivElement>(null);
  const { stuck, top } = useStuck(sentinel);
  const box = useFixedBox(placeholder, stuck, top);
  const [platforms, setPlatforms] = useState<string[]>(['a-platform']);

  return (
    <div className="page showcase-page" data-testid="sticky-page">
      <PageHeader subtitle="向下滚动页面：操作栏到达内容区顶部后固定在那里（IntersectionObserver 哨兵）" />
      <div ref={placeholder} style={box.place}>
        <div ref={sentinel} aria-hidden="true" />
        <div
          className={stuck ? 'sticky-bar sticky-bar-stuck' : 'sticky-bar'}
          style={box.bar}
          data-testid="sticky-bar"
          data-stuck={stuck ? 'true' : 'false'}
        >
          <span className="sticky-bar-label">{stuck ? '已吸顶' : '操作栏'}</span>
          <Select
            aria-label="发布平台"
            mode="multiple"
            maxTagCount="responsive"
            className="sticky-bar-select"
            options={PLATFORMS}
            value={platforms}
            onChange={setPlatforms}
            placeholder="发布平台"
          />
          <DatePicker aria-label="发布时间" placeholder="发布时间" className="sticky-bar-date" />
          <Button
            type="primary"
            onClick={() => void message.success(`已提交到 ${platforms.length} 个平台（示例，未保存）`)}
          >
            发布
          </Button>
        </div>
      </div>
      <Card title="长内容">
        {PARAGRAPHS.map((p) => (
          <section key={p.id} className="sticky-paragraph">
            <h2>{p.title}</h2>
            <p>{p.text}</p>
          </section>
        ))}
      </Card>
    </div>
  );
}
