import {
  type InputHTMLAttributes,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';

/**
 * A small form kit for the sign-in screen, which loads before (and without) antd to stay small.
 * Rules are functions returning the first message, built from the contract's field schemas.
 */
export type Values = Record<string, string | boolean | number>;
export type Rule<V extends Values> = (value: V[keyof V], values: V) => string | undefined;
export type Rules<V extends Values> = Partial<{ [K in keyof V]: Rule<V> }>;

export function useFields<V extends Values>(initial: V, rules: Rules<V>) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof V, string>>>({});
  const valuesRef = useRef(values);
  valuesRef.current = values;

  const check = useCallback(
    (key: keyof V, all: V) => {
      const rule = rules[key];
      return rule ? rule(all[key], all) : undefined;
    },
    [rules],
  );

  const set = useCallback(
    <K extends keyof V>(key: K, value: V[K]) => {
      const next = { ...valuesRef.current, [key]: value };
      valuesRef.current = next;
      setValues(next);
      // Once a field shows an error, it is re-checked as the person types.
      setErrors((prev) => (prev[key] ? { ...prev, [key]: check(key, next) } : prev));
    },
    [check],
  );

  const blur = useCallback(
    (key: keyof V) => {
      const all = valuesRef.current;
      if (all[key] === '' || all[key] === undefined) return; // don't scold an untouched empty field
      setErrors((prev) => ({ ...prev, [key]: check(key, all) }));
    },
    [check],
  );

  /** Checks the given fields (all by default); shows their messages; true when all pass. */
  const validate = useCallback(
    (keys?: Array<keyof V>) => {
      const all = valuesRef.current;
      const list = keys ?? (Object.keys(rules) as Array<keyof V>);
      const found: Partial<Record<keyof V, string>> = {};
      for (const key of list) found[key] = check(key, all);
      setErrors((prev) => ({ ...prev, ...found }));
      return list.every((key) => !found[key]);
    },
    [check, rules],
  );

  const setError = useCallback((key: keyof V, message: string | undefined) => {
    setErrors((prev) => ({ ...prev, [key]: message }));
  }, []);

  /** What a TextField needs for `key`: its name, value, message and change/blur handlers. */
  const field = (key: keyof V & string) => ({
    name: key,
    value: String(values[key] ?? ''),
    error: errors[key],
    onValue: (value: string) => set(key, value as V[typeof key]),
    onBlur: () => blur(key),
  });

  // The sign-in page is prerendered: a person may type before the script takes the form over.
  // On taking over, what they typed is kept (the form element is `formRef`'s).
  const formRef = useRef<HTMLFormElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the form is taken over
  useEffect(() => {
    const el = formRef.current;
    if (!el) return;
    for (const key of Object.keys(valuesRef.current) as Array<keyof V & string>) {
      const input = el.elements.namedItem(key);
      const typed =
        input instanceof HTMLInputElement && !/^(checkbox|radio)$/.test(input.type) ? input.value : '';
      if (typed && typed !== String(valuesRef.current[key] ?? '')) set(key, typed as V[typeof key]);
    }
  }, []);

  return { values, errors, set, blur, validate, setError, field, formRef };
}

export type Fields<V extends Values> = ReturnType<typeof useFields<V>>;

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: string;
  value: string;
  error?: string | undefined;
  onValue(value: string): void;
  addon?: ReactNode;
  icon?: ReactNode;
}

/** A labelled input with its rule message underneath. */
export function TextField({ label, value, error, onValue, addon, icon, type = 'text', ...rest }: FieldProps) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  const isPassword = type === 'password';
  return (
    <div className={`field${error ? ' field-error' : ''}`}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="field-row">
        <div className="field-box">
          {icon ? <span className="field-icon">{icon}</span> : null}
          <input
            id={id}
            className="field-input"
            type={isPassword && visible ? 'text' : type}
            value={value}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(e) => onValue(e.target.value)}
            {...rest}
          />
          {isPassword ? (
            <button
              type="button"
              className="field-eye"
              aria-label={visible ? '隐藏密码' : '显示密码'}
              onClick={() => setVisible((v) => !v)}
            >
              <EyeIcon open={visible} />
            </button>
          ) : null}
        </div>
        {addon}
      </div>
      <div className="field-message" id={`${id}-error`} role={error ? 'alert' : undefined}>
        {error ?? ''}
      </div>
    </div>
  );
}

export function Banner({ kind, children }: { kind: 'error' | 'success' | 'info'; children: ReactNode }) {
  return (
    <div className={`banner banner-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

function EyeIcon({ open }: { open: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
      <path
        d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
      />
      <circle cx="12" cy="12" r="3" fill="none" stroke="currentColor" strokeWidth="1.8" />
      {open ? null : <path d="M4 4l16 16" stroke="currentColor" strokeWidth="1.8" />}
    </svg>
  );
}

const iconProps = { viewBox: '0 0 24 24', width: 16, height: 16 } as const;
const stroke = { fill: 'none', stroke: 'currentColor', strokeWidth: 1.8, strokeLinecap: 'round' } as const;

export const Icons = {
  user: (
    <svg aria-hidden="true" {...iconProps}>
      <circle cx="12" cy="8" r="4" {...stroke} />
      <path d="M4 21c0-4.4 3.6-7 8-7s8 2.6 8 7" {...stroke} />
    </svg>
  ),
  phone: (
    <svg aria-hidden="true" {...iconProps}>
      <rect x="6" y="2" width="12" height="20" rx="2" {...stroke} />
      <path d="M11 18h2" {...stroke} />
    </svg>
  ),
  lock: (
    <svg aria-hidden="true" {...iconProps}>
      <rect x="4" y="10" width="16" height="11" rx="2" {...stroke} />
      <path d="M8 10V7a4 4 0 0 1 8 0v3" {...stroke} />
    </svg>
  ),
  shield: (
    <svg aria-hidden="true" {...iconProps}>
      <path d="M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6z" {...stroke} />
    </svg>
  ),
  building: (
    <svg aria-hidden="true" {...iconProps}>
      <rect x="4" y="3" width="16" height="18" rx="1" {...stroke} />
      <path d="M9 7h2M13 7h2M9 11h2M13 11h2M10 21v-4h4v4" {...stroke} />
    </svg>
  ),
  message: (
    <svg aria-hidden="true" {...iconProps}>
      <path d="M4 5h16v11H9l-5 4z" {...stroke} />
    </svg>
  ),
};
