/** Severity, most severe first; a logger at a level writes that level and the ones before it. */
export const LOG_LEVELS = ["error", "warn", "info", "debug"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type LogValue = string | number | boolean | null | undefined | readonly string[];
export type LogFields = Readonly<Record<string, LogValue>>;

/** "json": one JSON object per line (for machines); "pretty": aligned text (for a terminal). */
export type LogFormat = "json" | "pretty";

export interface Logger {
  readonly level: LogLevel;
  /** Whether `level` is written: check before building costly fields. */
  enabled(level: LogLevel): boolean;
  error(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
}

export interface LoggerOptions {
  level: LogLevel;
  format: LogFormat;
  /** Receives one finished line, newline included. */
  write: (line: string) => void;
  now?: () => Date;
}

export function isLogLevel(text: string): text is LogLevel {
  return LOG_LEVELS.some((level) => level === text);
}

/** A structured logger: a message plus flat fields, filtered by level, written as JSON lines or readable text. */
export function createLogger(options: LoggerOptions): Logger {
  const rank = LOG_LEVELS.indexOf(options.level);
  const now = options.now ?? (() => new Date());
  const format = options.format === "json" ? jsonLine : prettyLine;
  const enabled = (level: LogLevel) => LOG_LEVELS.indexOf(level) <= rank;
  const log = (level: LogLevel) => (message: string, fields: LogFields = {}) => {
    if (enabled(level)) options.write(format(now(), level, message, fields));
  };
  return { level: options.level, enabled, error: log("error"), warn: log("warn"), info: log("info"), debug: log("debug") };
}

const nothing = () => {};
/** A logger that writes nothing (library and test use of startService). */
export const silentLogger: Logger = { level: "error", enabled: () => false, error: nothing, warn: nothing, info: nothing, debug: nothing };

function jsonLine(time: Date, level: LogLevel, message: string, fields: LogFields): string {
  const record: Record<string, unknown> = { time: time.toISOString(), level, msg: message };
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) record[key] = value;
  return `${JSON.stringify(record)}\n`;
}

function prettyLine(time: Date, level: LogLevel, message: string, fields: LogFields): string {
  const parts = [time.toISOString().slice(11, 23), level.toUpperCase().padEnd(5), message];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const text = typeof value === "string" ? value : JSON.stringify(value);
    parts.push(`${key}=${/[\s"=]/.test(text) || text === "" ? JSON.stringify(text) : text}`);
  }
  return `${parts.join(" ")}\n`;
}
