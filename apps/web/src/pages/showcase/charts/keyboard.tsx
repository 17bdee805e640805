import { VisualMapComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { useEffect, useMemo, useState } from 'react';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { useApp } from '../../../stores/app';
import { KEYBOARD_BARS, keyboardBars } from './data';
import { prefersReducedMotion, ShowcaseChart } from './ShowcaseChart';
import '../showcase.css';

// The bars' colours follow their position (a visual map): only this page draws one.
echarts.use([VisualMapComponent]);

const LOOP_MS = 2600;
const INDEXES = Array.from({ length: KEYBOARD_BARS }, (_, i) => String(i + 1));

function keyboardOption(step: number, narrow: boolean, animate: boolean) {
  const { front, back } = keyboardBars(step);
  const axisColor = '#4a657a';
  return {
    backgroundColor: '#08263a',
    animation: animate,
    grid: { left: narrow ? 44 : 64, right: narrow ? 12 : 36, top: 48, bottom: 44 },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: [
      {
        name: '按键',
        nameLocation: 'middle',
        nameGap: 26,
        nameTextStyle: { color: axisColor },
        data: INDEXES,
        axisLabel: { color: axisColor, interval: narrow ? 9 : 4 },
        axisLine: { lineStyle: { color: axisColor } },
        axisTick: { show: false },
      },
      // The front row's own axis, so it is drawn on top of the back row instead of beside it.
      { show: false, data: INDEXES },
    ],
    yAxis: {
      name: '力度',
      nameTextStyle: { color: axisColor },
      axisLine: { show: false },
      axisTick: { show: false },
      axisLabel: { color: axisColor },
      splitLine: { lineStyle: { color: '#0b3350' } },
    },
    visualMap: {
      show: false,
      min: 0,
      max: KEYBOARD_BARS,
      dimension: 0,
      inRange: { color: ['#4a657a', '#308e92', '#b1cfa5', '#f5d69f', '#f5898b', '#ef5055'] },
    },
    series: [
      {
        name: '背景',
        type: 'bar',
        data: back,
        z: 1,
        itemStyle: { opacity: 0.4, borderRadius: 5, shadowBlur: 3, shadowColor: '#111' },
      },
      {
        name: '阴影',
        type: 'line',
        data: front,
        z: 2,
        showSymbol: false,
        silent: true,
        tooltip: { show: false },
        animationEasing: 'linear' as const,
        animationDuration: 1200,
        lineStyle: { color: 'transparent' },
        areaStyle: { color: '#08263a', shadowBlur: 50, shadowColor: '#000' },
      },
      { name: '按键力度', type: 'bar', data: front, xAxisIndex: 1, z: 3, itemStyle: { borderRadius: 5 } },
    ],
    animationEasing: 'elasticOut' as const,
    animationEasingUpdate: 'elasticOut' as const,
    animationDelay: (idx: number) => idx * 20,
    animationDelayUpdate: (idx: number) => idx * 20,
  };
}

/** /charts/keyboard (键盘图表): the template's "keyboard" bars, their wave moving in a loop. */
export default function KeyboardChartPage() {
  const narrow = useApp((s) => s.device === 'mobile');
  const [animate] = useState(() => !prefersReducedMotion());
  const [step, setStep] = useState(0);
  useEffect(() => {
    if (!animate) return;
    const timer = setInterval(() => setStep((s) => s + 1), LOOP_MS);
    return () => clearInterval(timer);
  }, [animate]);
  const option = useMemo(() => keyboardOption(step, narrow, animate), [step, narrow, animate]);
  return (
    <div className="page showcase-page" data-testid="keyboard-chart-page">
      <PageHeader subtitle="ECharts 柱状图：两排柱子叠放，按弹性缓动循环起伏（系统设置了减少动态效果时保持静止）" />
      <Card>
        <ShowcaseChart option={option} label="键盘图表：50 个按键的力度柱状图" />
      </Card>
    </div>
  );
}
