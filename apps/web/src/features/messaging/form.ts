import type { ApiParam } from '@wxc/contract/calls/catalogue';
import { buildCurlExample } from '../commerce/logic';

/**
 * The online tester's form, generated from a call's parameters (`wechatApiParam/listData`): which
 * widget each parameter gets, the example values, and the request body built back from what was
 * typed. Pure, so every rule is unit-tested.
 */
export type Widget =
  | 'wxid'
  | 'subAccount'
  | 'enum'
  | 'boolean'
  | 'integer'
  | 'number'
  | 'array'
  | 'json'
  | 'text';
export type FormValue = string | boolean | undefined;
export type FormValues = Record<string, FormValue>;

export interface FieldModel {
  name: string;
  type: string;
  required: boolean;
  description: string;
  example: unknown;
  options: Array<string | number> | null;
  widget: Widget;
}

export function widgetFor(p: Pick<ApiParam, 'name' | 'type' | 'enum'>): Widget {
  if (p.type === 'string' && p.name === 'wxid') return 'wxid';
  if (p.type === 'string' && p.name === 'subAccountId') return 'subAccount';
  if (p.enum && p.enum.length > 0) return 'enum';
  switch (p.type) {
    case 'boolean':
      return 'boolean';
    case 'integer':
      return 'integer';
    case 'number':
      return 'number';
    case 'array':
      return 'array';
    case 'object':
      return 'json';
    default:
      return 'text';
  }
}

export function fieldsFromParams(params: readonly ApiParam[]): FieldModel[] {
  return params.map((p) => ({
    name: p.name,
    type: p.type,
    required: p.required,
    description: p.description,
    example: p.example,
    options: p.enum,
    widget: widgetFor(p),
  }));
}

/** A value as the form shows it: arrays one item per line, objects as JSON, the rest as text. */
export function toFormValue(field: FieldModel, value: unknown): FormValue {
  if (value === undefined || value === null) return field.widget === 'boolean' ? undefined : '';
  if (field.widget === 'boolean') return Boolean(value);
  if (field.widget === 'array') {
    if (!Array.isArray(value)) return '';
    return value.every((v) => typeof v === 'string' || typeof v === 'number')
      ? value.join('\n')
      : JSON.stringify(value);
  }
  if (field.widget === 'json') return JSON.stringify(value, null, 2);
  return String(value);
}

/**
 * Starting values: the required parameters' examples (so the first send works), the chosen account
 * and sub-account where the call takes them; `all` fills every example (the 填入示例 button).
 */
export function initialValues(
  fields: readonly FieldModel[],
  context: { wxid?: string | undefined; subAccountId?: string | undefined },
  all = false,
): FormValues {
  const values: FormValues = {};
  for (const f of fields) {
    if (f.widget === 'wxid') values[f.name] = context.wxid ?? '';
    else if (f.widget === 'subAccount') values[f.name] = context.subAccountId ?? '';
    else if (f.required || all) values[f.name] = toFormValue(f, f.example);
    else values[f.name] = f.widget === 'boolean' ? undefined : '';
  }
  return values;
}

export interface BuiltBody {
  body: Record<string, unknown>;
  /** Parameter name → what is wrong with it. */
  errors: Record<string, string>;
}

/** Turns what was typed into the request body; empty optional fields are left out. */
export function buildBody(fields: readonly FieldModel[], values: FormValues): BuiltBody {
  const body: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const raw = values[f.name];
    if (f.widget === 'boolean') {
      if (raw === undefined) {
        if (f.required) errors[f.name] = `请选择 ${f.name}`;
      } else body[f.name] = raw === true;
      continue;
    }
    const text = typeof raw === 'string' ? raw.trim() : '';
    if (text === '') {
      if (f.required) errors[f.name] = `请填写 ${f.name}`;
      continue;
    }
    switch (f.widget) {
      case 'integer':
      case 'number': {
        const n = Number(text);
        if (!Number.isFinite(n) || (f.widget === 'integer' && !Number.isInteger(n))) {
          errors[f.name] = f.widget === 'integer' ? `${f.name} 须为整数` : `${f.name} 须为数字`;
        } else body[f.name] = n;
        break;
      }
      case 'enum': {
        const match = f.options?.find((o) => String(o) === text);
        body[f.name] = match ?? text;
        break;
      }
      case 'array': {
        if (text.startsWith('[')) {
          try {
            const parsed: unknown = JSON.parse(text);
            if (Array.isArray(parsed)) body[f.name] = parsed;
            else errors[f.name] = `${f.name} 须为数组`;
          } catch {
            errors[f.name] = `${f.name} 不是有效的 JSON 数组`;
          }
        } else {
          body[f.name] = text
            .split(/[\n,，]+/)
            .map((s) => s.trim())
            .filter(Boolean);
        }
        break;
      }
      case 'json': {
        try {
          body[f.name] = JSON.parse(text);
        } catch {
          errors[f.name] = `${f.name} 不是有效的 JSON`;
        }
        break;
      }
      default:
        body[f.name] = text;
    }
  }
  return { body, errors };
}

/** Which parameters a call takes that the page offers pickers for. */
export function takesWxid(fields: readonly FieldModel[]): boolean {
  return fields.some((f) => f.widget === 'wxid');
}

/**
 * The request as a program sends it: a curl command with the credential headers (key and secret are
 * placeholders; the console itself sends its session instead).
 */
export function curlFor(baseUrl: string, path: string, body: unknown, appKey?: string | null): string {
  return buildCurlExample({ baseUrl, path, body, appKey: appKey ?? null });
}

/** Pretty JSON for the request and response panels. */
export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'null';
}
