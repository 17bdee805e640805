import type { FastifyBaseLogger } from 'fastify';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Bindings = Record<string, unknown>;
/** The app's logger is pino's (tests may pass none: Fastify's silent stand-in has no levels). */
type PinoLogger = FastifyBaseLogger & {
  isLevelEnabled(level: string): boolean;
  bindings(): Bindings;
};

/**
 * A request's logger, made when something is first logged at a level that is on. Fastify gives
 * every request a child of the app's logger (bound to its request id), and pino builds a child
 * eagerly (it serialises the bindings at once): a few microseconds per request, for a logger most
 * requests never write to at the usual levels. What is written is the same: the child, with the
 * request id, is made on the first line.
 */
class LazyChildLogger {
  #child: PinoLogger | undefined;
  constructor(
    private readonly parent: PinoLogger,
    private readonly bindings_: Bindings,
  ) {}

  #real(): PinoLogger {
    this.#child ??= this.parent.child(this.bindings_) as PinoLogger;
    return this.#child;
  }
  #log(level: Level, args: unknown[]): void {
    const on = this.#child ?? this.parent;
    if (on.isLevelEnabled(level)) (this.#real()[level] as (...a: unknown[]) => void)(...args);
  }

  get level(): string {
    return (this.#child ?? this.parent).level;
  }
  set level(level: string) {
    this.#real().level = level;
  }
  isLevelEnabled(level: string): boolean {
    return (this.#child ?? this.parent).isLevelEnabled(level);
  }
  bindings(): Bindings {
    return this.#real().bindings();
  }
  child(bindings: Bindings, options?: object): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }
  fatal(...args: unknown[]) {
    this.#log('fatal', args);
  }
  error(...args: unknown[]) {
    this.#log('error', args);
  }
  warn(...args: unknown[]) {
    this.#log('warn', args);
  }
  info(...args: unknown[]) {
    this.#log('info', args);
  }
  debug(...args: unknown[]) {
    this.#log('debug', args);
  }
  trace(...args: unknown[]) {
    this.#log('trace', args);
  }
  silent() {}
}

/**
 * Fastify's `childLoggerFactory`: a lazy child for requests that log with the app's own settings;
 * a route with a log level or serialisers of its own gets pino's child at once.
 */
export function lazyChildLoggerFactory(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: object,
): FastifyBaseLogger {
  const pino = logger as PinoLogger;
  if (typeof pino.isLevelEnabled !== 'function' || Object.keys(options).length > 0) {
    return logger.child(bindings, options);
  }
  return new LazyChildLogger(pino, bindings) as unknown as FastifyBaseLogger;
}
