import { DataZoomComponent, TitleComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { useMemo } from 'react';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { useApp } from '../../../stores/app';
import { MIX_FEMALE, MIX_MALE, MIX_MONTHS, maleShare } from './data';
import { prefersReducedMotion, ShowcaseChart } from './ShowcaseChart';
import '../showcase.css';

echarts.use([TitleComponent, DataZoomComponent]);

function mixOption(narrow: boolean) {
  const text = '#90979c';
  const axisLine = { lineStyle: { color: text } };
  const barLabel = {
    show: !narrow,
    color: '#fff',
    formatter: (p: { value: number }) => (p.value > 0 ? p.value : ''),
  };
  return {
    backgroundColor: '#344b58',
    animation: !prefersReducedMotion(),
    title: {
      text: '人数统计',
      subtext: '男女人数（柱，左轴）与男性占比（线，右轴）',
      left: narrow ? 8 : '2%',
      top: 12,
      textStyle: { color: '#fff', fontSize: narrow ? 14 : 18 },
      subtextStyle: { color: text, fontSize: 12 },
    },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: {
      top: narrow ? 60 : 24,
      ...(narrow ? { left: 'center' } : { right: '4%' }),
      textStyle: { color: text },
    },
    grid: {
      top: narrow ? 120 : 96,
      left: narrow ? 8 : '3%',
      right: narrow ? 8 : '3%',
      bottom: narrow ? 76 : 96,
      containLabel: true,
    },
    xAxis: {
      type: 'category',
      name: '月份',
      nameLocation: 'middle',
      nameGap: 28,
      nameTextStyle: { color: text },
      data: MIX_MONTHS,
      axisLine,
      axisTick: { show: false },
      axisLabel: { color: text, interval: narrow ? 1 : 0 },
      splitLine: { show: false },
    },
    yAxis: [
      {
        type: 'value',
        name: '人数（人）',
        nameTextStyle: { color: text },
        axisLine,
        axisLabel: { color: text },
        splitLine: { lineStyle: { color: '#41596a' } },
      },
      {
        type: 'value',
        name: '男性占比（%）',
        nameTextStyle: { color: text },
        min: 0,
        max: 100,
        axisLine,
        axisLabel: { color: text, formatter: '{value}%' },
        splitLine: { show: false },
      },
    ],
    dataZoom: [
      {
        type: 'slider',
        show: true,
        height: 24,
        bottom: narrow ? 12 : 24,
        start: 0,
        end: 100,
        textStyle: { color: text },
        borderColor: text,
      },
      { type: 'inside', start: 0, end: 100 },
    ],
    series: [
      {
        name: '女',
        type: 'bar',
        stack: 'total',
        barMaxWidth: 36,
        itemStyle: { color: 'rgba(255,144,128,1)' },
        label: { ...barLabel, position: 'inside' },
        data: MIX_FEMALE,
      },
      {
        name: '男',
        type: 'bar',
        stack: 'total',
        itemStyle: { color: 'rgba(0,191,183,1)', borderRadius: 0 },
        label: { ...barLabel, position: 'top' },
        data: MIX_MALE,
      },
      {
        name: '男性占比',
        type: 'line',
        yAxisIndex: 1,
        symbolSize: 8,
        symbol: 'circle',
        itemStyle: { color: 'rgba(252,230,48,1)' },
        // On a box of the chart's background: readable where it crosses a bar's own label.
        label: {
          show: !narrow,
          position: 'top',
          color: '#fce630',
          formatter: '{c}%',
          backgroundColor: 'rgba(52, 75, 88, 0.85)',
          padding: [2, 4],
          borderRadius: 3,
        },
        tooltip: { valueFormatter: (v: number) => `${v}%` },
        data: maleShare(MIX_FEMALE, MIX_MALE),
      },
    ],
  };
}

/** /charts/mixchart (混合图表): stacked bars and a line on two y axes, with a zoom slider. */
export default function MixChartPage() {
  const narrow = useApp((s) => s.device === 'mobile');
  const option = useMemo(() => mixOption(narrow), [narrow]);
  return (
    <div className="page showcase-page" data-testid="mix-chart-page">
      <PageHeader subtitle="ECharts 混合图表：堆叠柱状图与折线图共用横轴、各用一条纵轴；拖动下方滑块或滚轮缩放月份" />
      <Card>
        <ShowcaseChart option={option} label="混合图表：每月男女人数与男性占比" />
      </Card>
    </div>
  );
}
