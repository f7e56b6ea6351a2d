/**
 * The Express entry: security headers, health checks, static files and the React Router
 * handler. Built into build/server/index.js together with the app, so the app and the server
 * share one configuration and one database client.
 */
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from "node:http";
import { Server as NetServer } from "node:net";
import compression from "compression";
import express from "express";
import type { ServerBuild } from "react-router";
import * as productionBuild from "virtual:react-router/server-build";
import type { ViteDevServer } from "vite";
import { toNodeHandler } from "better-auth/node";
import { ensureAdmin } from "~/features/accounts/admin-accounts.server";
import { CLIENT_ADDRESS_HEADER, getAuth, startAuthLoading } from "~/features/identity/auth.server";
import { contactMailHourlyCaps } from "~/features/contact/contact-mails.server";
import { guardTicketPosts } from "~/features/support/ticket-quotas.server";
import { publicPaths } from "~/features/seo/public-paths";
import { BEACON_PATH } from "~/features/analytics/analytics-rules";
import {
  createPageCache,
  hasPersonalCookie,
  privateWhenPersonal,
} from "~/platform/http/page-cache.server";
import { precompressedStatic } from "~/platform/http/precompressed-static.server";
import { handleWebhook, pruneWebhookEvents } from "~/features/payments/webhook.server";
import { pruneStaffAuditLog } from "~/features/audit/audit.server";
import { startVerifactuWorker, stopVerifactuWorker } from "~/features/verifactu/worker.server";
import {
  startEmbeddedBackups,
  type EmbeddedBackups,
} from "~/platform/backup/embedded-backup.server";
import { ConfigError, getConfig, type AppConfig } from "~/platform/config.server";
import type { Database } from "~/platform/db/client.server";
import { closeDatabase, getDatabaseHandle } from "~/platform/db/database.server";
import { expressRoutes, KEEP_ALIVE_TIMEOUT_MS } from "~/platform/http/express-routes";
import { loadContextFrom } from "~/platform/http/load-context";
import { reactRouterHandler } from "~/platform/http/react-router-handler.server";
import { requestLog } from "~/platform/http/request-log.server";
import { addressIsPlain, refuseMalformedAddress } from "~/platform/http/request-url.server";
import { redirectExtraSlashes } from "~/platform/http/trailing-slash.server";
import { getLogger } from "~/platform/logger.server";
import { makePrivate } from "~/platform/private-files";
import { flushErrorReporting, startErrorReporting } from "~/platform/error-reporting.server";
import {
  answerScrape,
  createMetrics,
  METRICS_PATH,
  startMetricsServer,
  type Metrics,
} from "~/platform/metrics/metrics.server";
import { requestMetrics } from "~/platform/metrics/request-metrics";
import { verifactuQueueState } from "~/features/verifactu/queue-state.server";
import { newestBackupTime } from "~/platform/backup/backup-file.server";
import { newestRecordedBackupSeconds } from "~/platform/backup/backup-runs.server";
import { KIND as EMBEDDED_BACKUP_KIND } from "~/platform/backup/embedded-backup.server";
import { getMailWorker } from "~/platform/mail/mailer.server";
import { outboxState, pruneFinishedMails } from "~/platform/mail/outbox.server";
import { pruneRateLimits } from "~/platform/security/rate-limit.server";
import { securityHeaders } from "~/platform/security/headers.server";
import { foreignOriginCheck, refuseForeignOrigin } from "~/platform/security/origin-check.server";
import { answerContactFields } from "~/features/contact/contact-action.server";
import { earlyFormPost } from "~/platform/http/early-form-post.server";

const MAX_BODY_BYTES = 64 * 1024;
/** The contact form's JSON answer (app/routes/api-contacto.ts), answered before Express. */
const CONTACT_ANSWER_PATH = "/api/contacto";
/** Ticket messages carry up to 3 files of 5 MB: their form routes (and `.data` calls) take more. */
const TICKET_MESSAGE_PATH = /^\/(?:mi-cuenta|admin)\/tickets\/[^/]+?(?:\.data)?$/;
const MAX_TICKET_BODY_BYTES = 16 * 1024 * 1024;

type ServerOptions = { viteDevServer?: ViteDevServer };

/** Requests are served only while ready; health checks tell a proxy the rest. */
let phase: "starting" | "ready" | "stopping" = "starting";

/**
 * The server's request listener: Express, with the page cache's hits answered in front of it
 * (see `answerCachedPage`).
 */
export function createApp(
  config: AppConfig,
  { viteDevServer }: ServerOptions = {},
): RequestListener {
  const logger = getLogger();
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy);

  app.get(expressRoutes.health, (_req, res) => {
    res.type("text/plain").send("ok");
  });
  app.get(expressRoutes.ready, async (_req, res) => {
    try {
      if (phase !== "ready") throw new Error(phase);
      await getDatabaseHandle().ping();
      res.type("text/plain").send("ready");
    } catch {
      res.status(503).type("text/plain").send("not ready");
    }
  });

  // Not cached: built once the page cache below exists (its hit ratio is one of the series).
  const pageCache = viteDevServer
    ? undefined
    : createPageCache({ paths: publicPaths(), isProduction: config.isProduction });
  metrics = config.metrics.enabled ? createMetrics(metricsSources(config, pageCache)) : undefined;
  // METRICS_TOKEN opens /metrics on this port too, to whoever has the token (decision 049).
  if (metrics && config.metrics.token) {
    const scrape = metrics;
    app.all(METRICS_PATH, async (req, res) => {
      await answerScrape(req, res, await scrape, config.metrics.token);
    });
  }

  app.use(
    requestLog(logger, {
      coarseAddressPaths: [BEACON_PATH],
      observe: metrics ? observeRequest : undefined,
    }),
  );
  // A malformed Host or X-Forwarded-Host is a 400 here, not a 500 in whichever handler builds a URL.
  app.use(refuseMalformedAddress);
  app.use(redirectExtraSlashes);
  // Better Auth reads the client address from this header: only ever our own value.
  app.use((req, _res, next) => {
    req.headers[CLIENT_ADDRESS_HEADER] = req.ip ?? req.socket.remoteAddress ?? "";
    next();
  });
  app.use(refuseUntilReady);
  app.use(securityHeaders({ isProduction: config.isProduction }));
  app.use(refuseLargeBodies);
  app.use(refuseForeignOrigin(config.siteUrl));
  // A customer's ticket posts: hourly limits and file quota, judged before the body is read.
  app.use(guardTicketPosts);
  // Not in development, where pages change on every edit (created above).
  // The hits that answerCachedPage left to Express.
  if (pageCache) app.use(pageCache.serve);
  // Cheap settings: most HTML is small, and the CPU is better spent serving requests.
  app.use(compression({ level: 4, brotli: { params: { 1: 4 } } }));

  if (viteDevServer) {
    app.use(viteDevServer.middlewares);
  } else {
    app.use(
      "/assets",
      labelled(
        "/assets/*",
        precompressedStatic("build/client/assets", { immutable: true, maxAge: "1y", index: false }),
      ),
    );
    app.use(
      labelled("static", precompressedStatic("build/client", { maxAge: "1h", index: false })),
    );
  }
  // Everything past the static files that a signed-in visitor gets is private, never stored.
  app.use(privateWhenPersonal);

  // Stripe (or the simulated checkout) posts its signed events here; the signature covers the raw body.
  app.post(
    expressRoutes.stripeWebhook,
    express.raw({ type: "*/*", limit: MAX_BODY_BYTES }),
    tracked(async (req, res) => {
      try {
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const answer = await handleWebhook(
          getDatabaseHandle().db,
          body,
          req.get("stripe-signature"),
        );
        res.status(answer.status).type("text/plain").send(answer.body);
      } catch (error) {
        // A 5xx makes the provider deliver the event again later.
        res.locals.log?.error({ err: error }, "webhook processing failed");
        res.status(503).type("text/plain").send("Inténtalo más tarde");
      }
    }),
  );

  // Only the two links mailed by Better Auth reach its handler; forms go through our actions.
  app.get(
    [expressRoutes.verifyEmailLink, expressRoutes.resetPasswordLink],
    tracked(async (req, res) => {
      await toNodeHandler(await getAuth())(req, res);
    }),
  );
  app.all(expressRoutes.closedAuthApi, (_req, res) => {
    res.status(404).type("text/plain").send("Not Found");
  });

  if (pageCache) app.use(pageCache.capture);
  app.all(
    "/{*splat}",
    tracked(
      reactRouterHandler({
        build: viteDevServer
          ? () =>
              viteDevServer.ssrLoadModule(
                "virtual:react-router/server-build",
              ) as Promise<ServerBuild>
          : productionBuild,
        mode: config.isProduction ? "production" : "development",
        getLoadContext: loadContextFrom,
      }),
    ),
  );
  if (!pageCache || logger.isLevelEnabled("debug")) return app;
  // The contact form's JSON answer, before Express and React Router when every middleware in
  // front of its action would let the post through untouched (decision 046).
  const isForeignOrigin = foreignOriginCheck(config.siteUrl);
  const answerContactPost = earlyFormPost({
    path: CONTACT_ANSWER_PATH,
    maxBodyBytes: MAX_BODY_BYTES,
    answer: answerContactFields,
    // refuseUntilReady, refuseMalformedAddress and refuseForeignOrigin; refuseLargeBodies is
    // the body's own check there.
    wouldPass: (req) => phase === "ready" && addressIsPlain(req) && !isForeignOrigin(req),
    expressRequest: app.request,
    isPersonal: hasPersonalCookie,
    isProduction: config.isProduction,
    logger,
    started: () => inFlight++,
    finished: (status, seconds) => {
      inFlight--;
      if (metrics) requestMetrics.record(CONTACT_ANSWER_PATH, "POST", status, seconds);
    },
  });
  if (!metrics)
    return (req, res) => {
      if (answerContactPost(req, res)) return;
      if (answerCachedPage(req, res, pageCache.answer) === undefined) void app(req, res);
    };
  return (req, res) => {
    if (answerContactPost(req, res)) return;
    const started = performance.now();
    const route = answerCachedPage(req, res, pageCache.answer);
    if (route === undefined) void app(req, res);
    // The time our code took to answer: the page is written whole, in one call.
    else requestMetrics.record(route, "GET", res.statusCode, (performance.now() - started) / 1e3);
  };
}

/** The metrics of this process, when METRICS_PORT or METRICS_TOKEN is set. */
let metrics: Promise<Metrics> | undefined;

/**
 * A request Express answered, for the request series: its route pattern is what the React
 * Router handler or the page cache found (`res.locals.route`), else Express's own route
 * (the webhook, the mailed links), else `other` (an answer of a middleware: a refusal, a
 * redirect).
 */
function observeRequest(req: express.Request, res: express.Response, seconds: number) {
  const route =
    typeof res.locals.route === "string"
      ? res.locals.route
      : req.route
        ? String((req.route as { path: unknown }).path)
        : "other";
  requestMetrics.record(route, req.method, res.statusCode, seconds);
}

/** Labels what `handler` answers with `route`; what it passes on is left unlabelled. */
function labelled(route: string, handler: express.RequestHandler): express.RequestHandler {
  return (req, res, next) => {
    res.locals.route = route;
    void handler(req, res, (error?: unknown) => {
      res.locals.route = undefined;
      next(error);
    });
  };
}

/**
 * What /metrics reads at each scrape: the outbox, the VERI*FACTU queue, the database's pool,
 * the page cache, and the newest embedded backup (on PostgreSQL pgBackRest keeps its own).
 */
function metricsSources(
  config: AppConfig,
  pageCache: ReturnType<typeof createPageCache> | undefined,
) {
  const handle = () => getDatabaseHandle();
  const backupDir = config.backup.dir;
  return {
    outbox: () => outboxState(handle().db),
    verifactu: config.verifactu.enabled ? () => verifactuQueueState(handle().db) : undefined,
    pool: () => handle().poolStats?.(),
    pageCache: pageCache && (() => pageCache.stats),
    lastBackup: config.databaseUrl
      ? { maker: "pgbackrest" as const, seconds: () => newestRecordedBackupSeconds(handle().db) }
      : backupDir
        ? {
            maker: "server" as const,
            seconds: () => {
              // The server makes these itself: none yet is a fact to alert on (0).
              const newest = newestBackupTime(backupDir, EMBEDDED_BACKUP_KIND);
              return Promise.resolve(newest ? newest.getTime() / 1000 : 0);
            },
          }
        : undefined,
  };
}

/**
 * A public page the page cache holds, answered before Express: a fifth of the work of the same
 * answer through Express and the middlewares above (decision 041). Only for a request they would
 * all let through untouched: while ready, a GET without a body, whose address is well-formed
 * (refuseUntilReady, refuseLargeBodies, refuseMalformedAddress); the page cache itself leaves
 * out visitors with the site's cookies. Such a hit is not logged (it would be at debug level:
 * with LOG_LEVEL=debug every request goes through Express). Anything else goes the long way.
 */
function answerCachedPage(
  req: IncomingMessage,
  res: ServerResponse,
  answer: (req: IncomingMessage, res: ServerResponse) => string | undefined,
): string | undefined {
  const { headers } = req;
  return phase === "ready" &&
    req.method === "GET" &&
    headers["transfer-encoding"] === undefined &&
    (headers["content-length"] === undefined || headers["content-length"] === "0") &&
    addressIsPlain(req)
    ? answer(req, res)
    : undefined;
}

/**
 * Handlers that have not finished: shutdown closes the database only after them, even when
 * their client has already gone (its socket closed, so the server no longer waits for it).
 */
let inFlight = 0;

function tracked(handler: express.RequestHandler): express.RequestHandler {
  return async (req, res, next) => {
    inFlight++;
    try {
      await handler(req, res, next);
    } finally {
      inFlight--;
    }
  };
}

/** Health checks answer while migrations run or shutdown drains; everything else waits. */
const refuseUntilReady: express.RequestHandler = (_req, res, next) => {
  if (phase === "ready") return next();
  res
    .status(503)
    .setHeader("Retry-After", "2")
    .type("text/plain")
    .send(
      phase === "starting"
        ? "Iniciando, inténtalo en unos segundos."
        : "Reiniciando, inténtalo en unos segundos.",
    );
};

/**
 * Bodies must declare their size (browsers and Stripe always do), and stay under 64 KB; a ticket
 * message with its files under 16 MB.
 */
const refuseLargeBodies: express.RequestHandler = (req, res, next) => {
  if (req.get("transfer-encoding") && !req.get("content-length")) {
    res.status(411).type("text/plain").send("Falta la cabecera Content-Length.");
    return;
  }
  const length = Number(req.get("content-length") ?? 0);
  const limit =
    req.method === "POST" && TICKET_MESSAGE_PATH.test(req.path)
      ? MAX_TICKET_BODY_BYTES
      : MAX_BODY_BYTES;
  if (length > limit) {
    res.status(413).type("text/plain").send("La petición es demasiado grande.");
    return;
  }
  next();
};

export async function startServer(options: ServerOptions = {}): Promise<Server> {
  let config: AppConfig;
  try {
    config = getConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = getLogger();
  const tightened = makePrivate(config.dataDir);
  if (tightened > 0)
    logger.warn(
      { dataDir: config.dataDir, entries: tightened },
      "DATA_DIR: permisos restringidos al usuario del servidor (0700 y 0600)",
    );
  if (!config.isProduction) {
    logger.info(
      { dataDir: config.dataDir },
      "Modo local: secreto generado, buzón de desarrollo en /dev/correo y pagos simulados",
    );
  }
  for (const warning of config.startWarnings) logger.warn(warning);
  try {
    await startErrorReporting(config.sentryDsn, {
      environment: config.nodeEnv,
      release: process.env.SENTRY_RELEASE,
    });
  } catch (error) {
    // Asked for and not possible: a bad configuration, which stops production like any other.
    logger.fatal({ err: error }, "SENTRY_DSN: no se pudo iniciar el envío de errores");
    if (config.isProduction) process.exit(1);
  }

  const server = createServer(createApp(config, options)).listen(config.port, config.host);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // A request's headers may take as long as the connection may idle before them.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  if (metrics && config.metrics.port !== undefined)
    metricsServer = startMetricsServer(config.metrics, await metrics);
  installShutdown(server);
  const database = getDatabaseHandle();
  // Better Auth loads while the embedded database is still opening in its thread, when this
  // thread would otherwise wait: after ready, its loading delayed the first answers (decision 060).
  startAuthLoading();
  await database.migrate();
  await ensureConfiguredAdmin(config, database.db);
  // A signal during the start: the shutdown is under way, nothing more starts.
  if (phase === "stopping") return server;
  // The workers' first pass waits one poll interval: on the embedded database's one connection,
  // readiness and the first pages would otherwise queue behind it (decision 039).
  await startBillingRecordSender(config, database.db);
  startBackgroundWork(database.db);
  await startBackups(config, database);
  phase = "ready";
  logger.info({ url: config.siteUrl, database: database.kind }, "ready");
  return server;
}

/** ADMIN_EMAIL/ADMIN_PASSWORD: the verified administrator that must exist after start. */
async function ensureConfiguredAdmin(config: AppConfig, db: Database) {
  if (!config.admin.email) return;
  const result = await ensureAdmin(await getAuth(), db, config.admin.email, config.admin.password);
  getLogger().info(
    { email: config.admin.email, created: result.created, reclaimed: result.reclaimed },
    "administrator ensured",
  );
}

/**
 * VERI*FACTU: the records go to AEAT (or, without a certificate outside production, to a local
 * stand-in); with VERIFACTU=off it only warns that nothing is sent. In production a certificate
 * that cannot be read stops the start, like any other bad configuration.
 */
async function startBillingRecordSender(config: AppConfig, db: Database) {
  try {
    await startVerifactuWorker(db, {
      deferFirstPass: true,
      // Loaded only when there is neither certificate nor endpoint (never in production).
      startLocalAeat: () =>
        import("./local-services/aeat-stand-in.server").then((standIn) =>
          standIn.startAeatStandIn(),
        ),
    });
  } catch (error) {
    const logger = getLogger();
    logger.fatal({ err: error }, "VERI*FACTU: no se pudo iniciar el envío a la AEAT");
    if (config.isProduction) process.exit(1);
  }
}

let backups: EmbeddedBackups | undefined;

/**
 * The embedded database's backups (decision 047): the socket `npm run db:backup` asks, and the
 * daily one in BACKUP_DIR. On PostgreSQL, pgBackRest makes them outside the site.
 */
async function startBackups(config: AppConfig, database: ReturnType<typeof getDatabaseHandle>) {
  const dump = database.dumpDataDir?.bind(database);
  if (!dump) return;
  const logger = getLogger();
  try {
    backups = await startEmbeddedBackups({
      dump,
      dataDir: config.dataDir,
      backupDir: config.backup.dir,
      keep: config.backup.keep,
      onBackup: (result) => logger.info(result, "copia de seguridad hecha"),
      onError: (error) => logger.error({ err: error }, "la copia de seguridad falló"),
    });
  } catch (error) {
    logger.error({ err: error }, "copias de seguridad no disponibles");
  }
}

/** METRICS_PORT's listener, closed at shutdown. */
let metricsServer: Server | undefined;

const PRUNE_INTERVAL_MS = 60 * 60_000;
let pruneTimer: NodeJS.Timeout | undefined;

/**
 * The mail outbox worker and the hourly clean-up of old rate-limit windows, mails, stored
 * webhook events and staff audit rows past their two years (decision 043).
 */
function startBackgroundWork(db: Database) {
  getMailWorker().start({ hourlyCaps: contactMailHourlyCaps(), deferFirstPass: true });
  const prune = () =>
    Promise.all([
      pruneRateLimits(db),
      pruneFinishedMails(db),
      pruneWebhookEvents(db),
      pruneStaffAuditLog(db),
    ]).catch((error) => getLogger().warn({ err: error }, "pruning old rows failed"));
  pruneTimer = setInterval(prune, PRUNE_INTERVAL_MS);
  pruneTimer.unref();
}

/** A kept-alive connection idle at the signal may still send one request in this time. */
const KEEP_ALIVE_GRACE_MS = 1_000;
/** Past this, whatever still runs is cut off and the exit code says the stop was not clean. */
const SHUTDOWN_LIMIT_MS = 10_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * SIGTERM/SIGINT: stop accepting connections, end every connection with its next answer
 * (`Connection: close`; new requests on kept-alive connections get the 503 of
 * refuseUntilReady), let the requests in flight finish, close what is left, then stop the mail
 * worker between mails, close the database and exit with 0. See decision 023.
 */
function installShutdown(server: Server) {
  const unfinished = new Set<ServerResponse>();
  // Before the app's own listener, so that even an answer sent at once carries the header.
  server.prependListener("request", (_req: IncomingMessage, res: ServerResponse) => {
    unfinished.add(res);
    res.once("close", () => unfinished.delete(res));
    if (phase === "stopping") res.setHeader("Connection", "close");
  });
  const connections = () =>
    new Promise<number>((resolve) => server.getConnections((_error, count) => resolve(count ?? 0)));

  const stop = async (signal: string) => {
    if (phase === "stopping") return;
    phase = "stopping";
    const logger = getLogger();
    logger.info({ signal }, "shutting down");
    const force = setTimeout(() => {
      logger.error({ signal }, "shutdown took too long: exiting with requests unfinished");
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS);
    force.unref();
    clearInterval(pruneTimer);
    // The worker finishes the mails it has claimed and claims no more; the rest wait in the
    // outbox for the next instance.
    const mailStopped = getMailWorker().stop();
    // The VERI*FACTU request under way stores its answer; the rest wait in the queue.
    const verifactuStopped = stopVerifactuWorker();
    for (const res of unfinished) if (!res.headersSent) res.setHeader("Connection", "close");
    // net.Server's close only stops listening: http.Server's would also drop idle kept-alive
    // connections at once, racing a request their client may be sending at that moment.
    const closed = new Promise<void>((resolve) =>
      NetServer.prototype.close.call(server, () => resolve()),
    );
    const graceEnds = performance.now() + KEEP_ALIVE_GRACE_MS;
    // Busy connections close after their answer; idle ones get the grace to ask once more.
    while (
      inFlight > 0 ||
      unfinished.size > 0 ||
      (performance.now() < graceEnds && (await connections()) > 0)
    )
      await pause(25);
    server.closeAllConnections();
    await closed;
    try {
      await mailStopped;
      await verifactuStopped;
      // A backup under way finishes first: it reads the database being closed.
      await backups?.stop();
      await closeDatabase();
    } catch (error) {
      logger.error({ err: error }, "closing the database failed");
    }
    metricsServer?.close();
    await flushErrorReporting();
    clearTimeout(force);
    logger.info({ signal }, "stopped");
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}
