import { TitleComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { useMemo } from 'react';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { useApp } from '../../../stores/app';
import { LINE_SERIES, LINE_TIMES } from './data';
import { prefersReducedMotion, ShowcaseChart } from './ShowcaseChart';
import '../showcase.css';

echarts.use([TitleComponent]);

/** `color` fading to transparent, top to bottom: the area under a line. */
const fade = (color: string) => ({
  type: 'linear',
  x: 0,
  y: 0,
  x2: 0,
  y2: 1,
  colorStops: [
    { offset: 0, color: `${color}4d` },
    { offset: 0.8, color: `${color}00` },
  ],
});

function lineOption(narrow: boolean) {
  const text = '#d9e1ee';
  const axis = '#57617b';
  return {
    backgroundColor: '#394056',
    animation: !prefersReducedMotion(),
    title: {
      text: '请求量',
      left: narrow ? 8 : '1%',
      top: 16,
      textStyle: { color: '#fff', fontSize: narrow ? 14 : 16, fontWeight: 'normal' },
    },
    tooltip: { trigger: 'axis', axisPointer: { lineStyle: { color: axis } } },
    legend: {
      top: narrow ? 48 : 20,
      ...(narrow ? { left: 'center' } : { right: '4%' }),
      icon: 'rect',
      itemWidth: 14,
      itemHeight: 5,
      itemGap: narrow ? 8 : 13,
      textStyle: { color: text, fontSize: 12 },
    },
    grid: {
      top: narrow ? 96 : 80,
      left: narrow ? 8 : '2%',
      right: narrow ? 16 : '3%',
      bottom: 40,
      containLabel: true,
    },
    xAxis: {
      type: 'category',
      name: '时间',
      nameLocation: 'middle',
      nameGap: 28,
      nameTextStyle: { color: text },
      boundaryGap: false,
      data: LINE_TIMES,
      axisLine: { lineStyle: { color: axis } },
      axisLabel: { color: text, margin: 10 },
    },
    yAxis: {
      type: 'value',
      name: '请求数（次）',
      nameTextStyle: { color: text, align: 'left' },
      axisTick: { show: false },
      axisLine: { show: false },
      axisLabel: { color: text, margin: 10 },
      splitLine: { lineStyle: { color: axis } },
    },
    series: LINE_SERIES.map((s) => ({
      name: s.name,
      type: 'line',
      smooth: true,
      symbol: 'circle',
      symbolSize: 5,
      showSymbol: false,
      lineStyle: { width: 1 },
      areaStyle: { color: fade(s.color), shadowColor: 'rgba(0, 0, 0, 0.1)', shadowBlur: 10 },
      itemStyle: { color: s.color, borderColor: `${s.color}33`, borderWidth: 12 },
      data: s.data,
    })),
  };
}

/** /charts/line (折线图): three operators' requests every five minutes, smooth lines with areas. */
export default function LineChartPage() {
  const narrow = useApp((s) => s.device === 'mobile');
  const option = useMemo(() => lineOption(narrow), [narrow]);
  return (
    <div className="page showcase-page" data-testid="line-chart-page">
      <PageHeader subtitle="ECharts 折线图：三条平滑曲线与渐变面积，悬停查看同一时刻的三组数值" />
      <Card>
        <ShowcaseChart option={option} label="折线图：移动、电信、联通每 5 分钟的请求数" />
      </Card>
    </div>
  );
}
