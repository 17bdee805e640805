import cluster from 'node:cluster';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from './app.js';
import { superviseWorkers } from './cluster.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { migrateToLatest, openDatabase } from './db/index.js';
import { seedDemoMessaging } from './demo.js';
import { createPostgresBus } from './modules/events/bus.js';
import { type SeedReport, seed } from './seed.js';

/** Node's default is 511. */
const LISTEN_BACKLOG = 4096;

const rootLogger = (config: { logLevel: string }) => pino({ level: config.logLevel });

async function main() {
  const config = loadConfig();
  // WORKERS=N (PostgreSQL): this process migrates and seeds, then runs N workers (cluster.ts); each
  // worker starts the service below without doing either again.
  const primaryOfMany = config.workers > 1 && cluster.isPrimary;
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    poolSize: config.databasePoolSize,
    // The process that serves opens its connections now; a primary of workers only migrates.
    keepConnectionsOpen: !primaryOfMany,
    preparedStatements: config.databasePreparedStatements,
    sqliteFile: path.join(config.dataDir, 'app.sqlite'),
    warn: (message) => rootLogger(config).warn(message),
  });
  let report: SeedReport | undefined;
  if (!cluster.isWorker) {
    await migrateToLatest(database.db);
    report = await seed(database.db, config);
  }
  if (primaryOfMany) {
    await database.close();
    const log = rootLogger(config);
    superviseWorkers({
      workers: config.workers,
      log,
      onListening: (port) => printBanner(config, report!, port, `PostgreSQL, ${config.workers} workers`),
    });
    return;
  }

  const bus = config.databaseUrl
    ? await createPostgresBus(config.databaseUrl, rootLogger(config))
    : undefined;
  const app = await buildApp({ config, database, closeDatabase: true, ...(bus ? { bus } : {}) });

  let closing = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      app.log.info(`${signal}: finishing open requests, then stopping`);
      const force = setTimeout(() => process.exit(1), 10_000);
      force.unref();
      app.close().then(
        () => process.exit(0),
        (err) => {
          app.log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }

  // Connections waiting to be accepted while the process is busy: a thousand clients connecting at
  // once must queue, not be refused or dropped (the kernel caps it at net.core.somaxconn).
  await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  if (!report) return; // a worker: the primary says where the service is
  if (report.demo) {
    await seedDemoMessaging(app.services).catch((err) =>
      app.log.warn({ err }, 'demo messaging data not created'),
    );
  }
  const address = app.server.address();
  const port = address && typeof address === 'object' ? address.port : config.port;
  printBanner(
    config,
    report,
    port,
    database.dialect === 'sqlite' ? path.join(config.dataDir, 'app.sqlite') : 'PostgreSQL',
  );
}

/** The start banner goes to stdout as plain text, for the person who ran `npm start`. */
function printBanner(config: Config, report: SeedReport, port: number, databaseLabel: string) {
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  const admin = report.admin;
  const adminLine = admin.password
    ? `${admin.account} / ${admin.password}   (generated now; also saved in ${path.join(config.dataDir, 'initial-admin-password.txt')})`
    : admin.passwordFile
      ? `${admin.account} / (see ${admin.passwordFile})`
      : `${admin.account} / (the ADMIN_PASSWORD it was created with)`;
  const lines = [
    '',
    `  ${config.productTitle} is running`,
    `  Console:        ${url}`,
    `  API reference:  ${url}/docs`,
    `  Database:       ${databaseLabel}`,
    `  Operator login: ${adminLine}`,
    ...(report.demo ? [`  Demo customer:  ${report.demo.account} / ${report.demo.password}`] : []),
    ...(config.sms.provider === 'dev-outbox'
      ? ['  SMS codes:      printed in this log as [dev-sms] lines (dev outbox)']
      : []),
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(
      `Failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
  }
  process.exit(1);
});
