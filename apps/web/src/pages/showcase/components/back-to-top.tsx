import { FloatButton } from 'antd';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import '../showcase.css';
import './widgets.css';

const SECTIONS = Array.from({ length: 30 }, (_, i) => ({
  id: `s${i + 1}`,
  title: `第 ${i + 1} 节`,
  text:
    i % 3 === 0
      ? '页面较长时，向下滚动超过 300 像素，右下角会出现「返回顶部」按钮。'
      : i % 3 === 1
        ? '点击按钮，页面会平滑滚动回顶部；回到顶部后按钮自动隐藏。'
        : '控制台的外壳里，滚动的是整个窗口（window），不是内容区 .app-main，所以按钮监听的是窗口的滚动。',
}));

export default function BackToTopPage() {
  return (
    <div className="page showcase-page" data-testid="back-to-top-page">
      <PageHeader subtitle="向下滚动页面，右下角出现「返回顶部」按钮，点击后平滑滚回顶部" />
      <Card title="长页面">
        {SECTIONS.map((s) => (
          <section key={s.id} className="sticky-paragraph">
            <h2>{s.title}</h2>
            <p>{s.text}</p>
          </section>
        ))}
      </Card>
      {/* The shell scrolls the window (AppMain's .app-main clips, it does not scroll): BackTop's default target. */}
      <FloatButton.BackTop
        visibilityHeight={300}
        duration={450}
        tooltip="返回顶部"
        aria-label="返回顶部"
        data-testid="back-to-top"
      />
    </div>
  );
}
