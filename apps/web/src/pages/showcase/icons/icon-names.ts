export type IconTheme = 'outlined' | 'filled' | 'twotone';

const SUFFIX: Record<IconTheme, string> = { outlined: 'Outlined', filled: 'Filled', twotone: 'TwoTone' };

/** `…/inline-svg/outlined/arrow-down.svg` → `ArrowDownOutlined` (the @ant-design/icons export). */
export function iconComponentName(file: string, theme: IconTheme): string {
  const base = file.replace(/^.*\//, '').replace(/\.svg$/, '');
  const pascal = base
    .split('-')
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
  return pascal + SUFFIX[theme];
}

/** The JSX that a click copies. */
export function iconJsx(name: string): string {
  return `<${name} />`;
}

/** Case-insensitive search in the name; several words must all match. */
export function matchesIcon(name: string, query: string): boolean {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const lower = name.toLowerCase();
  return words.every((w) => lower.includes(w));
}
