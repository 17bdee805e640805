import { Button, Input, InputNumber } from 'antd';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { formatCount, valueAt } from './widgets/count-to';
import '../showcase.css';
import './widgets.css';

type Phase = 'idle' | 'running' | 'paused' | 'done';

interface Settings {
  start: number;
  end: number;
  duration: number;
  decimals: number;
  separator: string;
  prefix: string;
  suffix: string;
}

const DEFAULTS: Settings = {
  start: 0,
  end: 2017,
  duration: 4000,
  decimals: 0,
  separator: ',',
  prefix: '¥ ',
  suffix: ' 元',
};

/**
 * The template's vue-count-to: a number that counts from start to end with easeOutExpo, one
 * requestAnimationFrame at a time; pausing keeps the time already run, so resuming continues.
 */
function useCountTo(settings: Settings) {
  const [value, setValue] = useState(settings.start);
  const [phase, setPhase] = useState<Phase>('idle');
  const frame = useRef(0);
  /** The settings of the current run (edits apply from the next 开始). */
  const run = useRef(settings);
  /** Milliseconds of the run done before the current stretch (pauses excluded). */
  const ranBefore = useRef(0);
  const stretchStart = useRef(0);

  const stop = useCallback(() => cancelAnimationFrame(frame.current), []);

  const play = () => {
    const { start, end, duration } = run.current;
    stretchStart.current = performance.now();
    const step = (now: number) => {
      const elapsed = ranBefore.current + now - stretchStart.current;
      setValue(valueAt(start, end, elapsed, duration));
      if (elapsed >= duration) setPhase('done');
      else frame.current = requestAnimationFrame(step);
    };
    setPhase('running');
    frame.current = requestAnimationFrame(step);
  };

  // A cached view hidden behind another tab stops its effects: the count pauses there and goes on
  // when the tab is shown again.
  const phaseNow = useRef(phase);
  phaseNow.current = phase;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on show / hide only
  useEffect(() => {
    if (phaseNow.current === 'running') play();
    return () => {
      if (phaseNow.current !== 'running') return;
      stop();
      ranBefore.current += performance.now() - stretchStart.current;
    };
  }, []);

  return {
    value: phase === 'idle' ? settings.start : value,
    phase,
    start() {
      stop();
      run.current = settings;
      ranBefore.current = 0;
      setValue(settings.start);
      play();
    },
    pauseResume() {
      if (phase === 'running') {
        stop();
        ranBefore.current += performance.now() - stretchStart.current;
        setPhase('paused');
      } else if (phase === 'paused') play();
    },
    reset() {
      stop();
      ranBefore.current = 0;
      setPhase('idle');
    },
  };
}

/** The settings form: a field per setting, numbers and texts. */
const NUMBER_FIELDS: {
  key: 'start' | 'end' | 'duration' | 'decimals';
  label: string;
  limits?: { min: number; max: number; step?: number; precision?: number };
}[] = [
  { key: 'start', label: '起始值' },
  { key: 'end', label: '结束值' },
  { key: 'duration', label: '时长（毫秒）', limits: { min: 0, max: 60000, step: 500 } },
  { key: 'decimals', label: '小数位数', limits: { min: 0, max: 6, precision: 0 } },
];
const TEXT_FIELDS: { key: 'separator' | 'prefix' | 'suffix'; label: string; maxLength: number }[] = [
  { key: 'separator', label: '千位分隔符', maxLength: 2 },
  { key: 'prefix', label: '前缀', maxLength: 10 },
  { key: 'suffix', label: '后缀', maxLength: 10 },
];

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="count-to-field">
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}

export default function CountToPage() {
  const [settings, setSettings] = useState(DEFAULTS);
  const counter = useCountTo(settings);
  const set = <K extends keyof Settings>(key: K, value: Settings[K] | null) =>
    setSettings((s) => ({ ...s, [key]: value ?? DEFAULTS[key] }));
  const shown = formatCount(counter.value, settings);

  return (
    <div className="page showcase-page" data-testid="count-to-page">
      <PageHeader subtitle="数字从起始值缓动到结束值（requestAnimationFrame + easeOutExpo），可暂停、继续与重置" />
      <Card>
        <output
          className="count-to-value"
          data-testid="count-to-value"
          data-phase={counter.phase}
          aria-live="off"
        >
          {shown}
        </output>
        <div className="count-to-form">
          {NUMBER_FIELDS.map(({ key, label, limits }) => (
            <Field key={key} id={`count-${key}`} label={label}>
              <InputNumber
                id={`count-${key}`}
                {...limits}
                value={settings[key]}
                onChange={(v) => set(key, v)}
              />
            </Field>
          ))}
          {TEXT_FIELDS.map(({ key, label, maxLength }) => (
            <Field key={key} id={`count-${key}`} label={label}>
              <Input
                id={`count-${key}`}
                maxLength={maxLength}
                value={settings[key]}
                onChange={(e) => set(key, e.target.value)}
              />
            </Field>
          ))}
        </div>
        <div className="showcase-row count-to-actions">
          <Button type="primary" onClick={counter.start}>
            开始
          </Button>
          <Button
            disabled={counter.phase !== 'running' && counter.phase !== 'paused'}
            onClick={counter.pauseResume}
          >
            {counter.phase === 'paused' ? '继续' : '暂停'}
          </Button>
          <Button onClick={counter.reset}>重置</Button>
        </div>
        <p className="showcase-muted count-to-note">
          修改参数后点「开始」按新参数重新计数；用法：
          <code>
            {`<CountTo start={${settings.start}} end={${settings.end}} duration={${settings.duration}} decimals={${settings.decimals}} separator="${settings.separator}" prefix="${settings.prefix}" suffix="${settings.suffix}" />`}
          </code>
        </p>
      </Card>
    </div>
  );
}
