import { Button } from 'antd';
import { type ReactNode, useState, useSyncExternalStore } from 'react';
import { Group, Panel, type PanelSize, Separator, useGroupRef } from 'react-resizable-panels';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import '../showcase.css';
import './editors.css';

const NARROW = '(max-width: 575px)';
const subscribeNarrow = (onChange: () => void) => {
  const query = window.matchMedia(NARROW);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};
const isNarrow = () => window.matchMedia(NARROW).matches;

const OUTER = { left: 30, right: 70 };
const INNER = { top: 50, bottom: 50 };

/**
 * /components/split-pane (Splitpane): nested resizable panes, left | (top / bottom), with
 * react-resizable-panels (MIT). The handles are focusable separators: arrow keys resize, Home / End
 * go to the limits, a double click restores the default. On phones the panes stack vertically.
 */
export default function SplitPanePage() {
  const narrow = useSyncExternalStore(subscribeNarrow, isNarrow);
  const [sizes, setSizes] = useState<Record<string, number>>({ ...OUTER, ...INNER });
  const outer = useGroupRef();
  const inner = useGroupRef();
  const track = (id: string) => (size: PanelSize) =>
    setSizes((prev) => ({ ...prev, [id]: Math.round(size.asPercentage) }));
  const reset = () => {
    outer.current?.setLayout(OUTER);
    inner.current?.setLayout(INNER);
  };

  return (
    <div className="page showcase-page" data-testid="split-pane-page">
      <PageHeader subtitle="可拖动调整大小的嵌套面板：左右分栏，右侧再上下分栏；分隔条可用键盘方向键调整" />
      <Card
        title={narrow ? '上 | （中 / 下）' : '左 | （上 / 下）'}
        extra={
          <Button size="small" onClick={reset}>
            恢复默认
          </Button>
        }
      >
        {/* The group fills its frame: the library sets its height to 100% inline. */}
        <div className="split-frame">
          <Group
            key={narrow ? 'narrow' : 'wide'}
            groupRef={outer}
            orientation={narrow ? 'vertical' : 'horizontal'}
            id="split-outer"
          >
            <Panel id="left" defaultSize={`${OUTER.left}%`} minSize="15%" onResize={track('left')}>
              <Pane name={narrow ? '上方面板' : '左侧面板'} testId="pane-left" size={sizes.left}>
                拖动{narrow ? '下方的分隔条调整高度' : '右侧的分隔条调整宽度'}，或聚焦分隔条后按方向键。
              </Pane>
            </Panel>
            <Separator
              className="split-handle"
              aria-label={narrow ? '调整上下高度' : '调整左右宽度'}
              id="split-handle-outer"
            />
            <Panel id="right" defaultSize={`${OUTER.right}%`} minSize="30%" onResize={track('right')}>
              <Group groupRef={inner} orientation="vertical">
                <Panel id="top" defaultSize={`${INNER.top}%`} minSize="15%" onResize={track('top')}>
                  <Pane name={narrow ? '中间面板' : '右上面板'} testId="pane-top" size={sizes.top}>
                    嵌套的上下分栏。
                  </Pane>
                </Panel>
                <Separator className="split-handle" aria-label="调整右侧上下高度" id="split-handle-inner" />
                <Panel id="bottom" defaultSize={`${INNER.bottom}%`} minSize="15%" onResize={track('bottom')}>
                  <Pane name={narrow ? '下方面板' : '右下面板'} testId="pane-bottom" size={sizes.bottom}>
                    双击分隔条恢复默认大小。
                  </Pane>
                </Panel>
              </Group>
            </Panel>
          </Group>
        </div>
      </Card>
    </div>
  );
}

function Pane({
  name,
  size,
  testId,
  children,
}: {
  name: string;
  size: number | undefined;
  testId: string;
  children: ReactNode;
}) {
  return (
    <section className="split-pane" aria-label={name} data-testid={testId}>
      <h3 className="split-pane-title">
        {name}
        <span className="split-pane-size" data-testid={`${testId}-size`}>
          {size === undefined ? '' : `${size}%`}
        </span>
      </h3>
      <p className="showcase-muted">{children}</p>
    </section>
  );
}
