import { z } from 'zod';

/**
 * Who may make a call. Every call names one; the server's route helper enforces it in one place,
 * so no handler checks roles by hand.
 * - public: anyone (the console session is still read when present);
 * - user: any logged-in console user, customer or operator (their own session and profile);
 * - customer: a logged-in customer (a company); operators are refused with "40300";
 * - operator: a logged-in operator (role admin); customers are refused with "40300";
 * - customerOrApi: the messaging gateway: a customer's program with its sub-account credentials,
 *   or a logged-in customer in the console (the online tester calls exactly what programs call).
 */
export const CALL_AUDIENCES = ['public', 'user', 'customer', 'operator', 'customerOrApi'] as const;
export type CallAudience = (typeof CALL_AUDIENCES)[number];

/**
 * One call of the API: its address, who may make it, its input and the `data` of its answer.
 * The server registers routes from these, the console's client is typed from them, and the
 * OpenAPI document and the online tester's catalogue are generated from them: one source.
 */
export interface CallDef<
  Req extends z.ZodType = z.ZodType,
  Res extends z.ZodType = z.ZodType,
  Audience extends CallAudience = CallAudience,
> {
  /** Stable operation id, `<domain>.<name>`. */
  id: string;
  method: 'GET' | 'POST';
  /** The full path, e.g. `/api/msg/sendMsgText`. */
  path: string;
  audience: Audience;
  /**
   * A read an operator may make on behalf of one named company (the read-only support view:
   * `x-view-company: <companyId>`). Only for `customer` and `customerOrApi` calls that change nothing.
   */
  supportRead?: true;
  /** Group name in the API reference (Chinese). */
  tag: string;
  summary: string;
  description?: string;
  /** The envelope's message on success, when the spec names one (e.g. applyApis: 申请成功). */
  successMessage?: string;
  /** Body for POST, query for GET. */
  request: Req;
  /** The `data` of a successful envelope. */
  response: Res;
}

export function defineCall<Req extends z.ZodType, Res extends z.ZodType, const Audience extends CallAudience>(
  def: CallDef<Req, Res, Audience>,
): CallDef<Req, Res, Audience> {
  return def;
}

export type CallRequest<C> = C extends CallDef<infer Req, z.ZodType, CallAudience> ? z.input<Req> : never;
export type CallResponse<C> = C extends CallDef<z.ZodType, infer Res, CallAudience> ? z.output<Res> : never;

/** Every answer is `{ code, message, data }`; success is the string "200". */
export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({ code: z.string(), message: z.string(), data });
}
export interface Envelope<T> {
  code: string;
  message: string;
  data: T;
}

/** A request with no input: accepts `{}` and an absent body alike. */
export const emptyRequest = z.strictObject({}).optional().default({});
/** An answer with no data. */
export const emptyResponse = z.null();
