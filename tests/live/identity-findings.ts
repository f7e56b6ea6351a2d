/**
 * `npm run test:identity-live`: issue 36's findings re-tried as an attacker would, over HTTP,
 * against the production build started here (local mode, its own data directory). Each line
 * says what was tried and what the server answered; any answer that lets the attack through
 * fails the run. The same attacks run in-process in tests/integration/identity-attacks.test.ts;
 * this proves them on a real server, cookies and all.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { totpCode, totpStep } from "../support/totp";

const ADMIN = { email: "jefa@verticedigital.es", password: "Prueba-en-vivo-1234" };
const failures: string[] = [];
const say = (ok: boolean, what: string) => {
  console.log(`${ok ? "refused " : "ALLOWED "} ${what}`);
  if (!ok) failures.push(what);
};

const port = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, "127.0.0.1", () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  });
});
const site = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), "identity-live-"));
const server = spawn(process.execPath, ["build/server/index.js"], {
  env: {
    ...process.env,
    NODE_ENV: "development",
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: site,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: "warn",
    HUMAN_CHECK: "off",
  },
  stdio: ["ignore", "ignore", "inherit"],
});

/** A browser's cookie jar, as plain pairs. */
class Jar {
  private pairs = new Map<string, string>();
  take(answer: Response) {
    for (const cookie of answer.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const name = pair!.split("=")[0]!;
      if (/Max-Age=0/i.test(cookie)) this.pairs.delete(name);
      else this.pairs.set(name, pair!);
    }
    return this;
  }
  get(name: RegExp) {
    return [...this.pairs.entries()].find(([key]) => name.test(key))?.[1];
  }
  get header() {
    return [...this.pairs.values()].join("; ");
  }
}

const post = (to: string, fields: Record<string, string>, cookie = "") =>
  fetch(`${site}${to}`, {
    method: "POST",
    redirect: "manual",
    body: new URLSearchParams(fields),
    headers: { Cookie: cookie, Origin: site, "Sec-Fetch-Site": "same-origin" },
  });
const get = (to: string, cookie = "") =>
  fetch(`${site}${to}`, { redirect: "manual", headers: { Cookie: cookie } });

try {
  for (let tries = 0; ; tries++) {
    const ready = await fetch(`${site}/readyz`).then(
      (r) => r.status,
      () => 0,
    );
    if (ready === 200) break;
    if (tries > 300) throw new Error("the server did not start");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  // The administrator enrols the app, as the security page has it.
  const admin = new Jar().take(await post("/login", ADMIN));
  const started = await (
    await post("/admin/seguridad", { intent: "start", password: ADMIN.password }, admin.header)
  ).text();
  const secret = /data-totp-secret="[^"]*">([^<]+)</.exec(started)![1]!.replace(/\s/g, "");
  const uri = /name="uri" value="([^"]+)"/.exec(started)![1]!.replaceAll("&amp;", "&");
  admin.take(
    await post(
      "/admin/seguridad",
      { intent: "confirm", code: totpCode(secret), uri },
      admin.header,
    ),
  );

  // 5. Confirming an enrolment again while the factor is on.
  const again = await post(
    "/admin/seguridad",
    { intent: "confirm", code: totpCode(secret, totpStep() + 1), uri },
    admin.header,
  );
  say(again.status === 409, `5. a second enrolment confirmation answered ${again.status}`);

  // 1. A code the administrator used, replayed with a new password challenge.
  const used = totpCode(secret, totpStep() + 1);
  const legit = new Jar().take(await post("/login", ADMIN));
  const signedIn = await post("/login/verificacion", { code: used }, legit.header);
  if (signedIn.status !== 302)
    throw new Error(`the administrator could not sign in: ${signedIn.status}`);
  const attacker = new Jar().take(await post("/login", ADMIN));
  attacker.take(
    new Response(null, { headers: { "Set-Cookie": "vd_second_factor=forjada; Path=/" } }),
  );
  const replay = await post("/login-cliente/verificacion", { code: used }, attacker.header);
  const replayJar = new Jar().take(replay);
  say(
    replay.status === 401 && !replayJar.get(/session_token/),
    `1. a used code replayed at the customers' door answered ${replay.status}`,
  );

  // 8. Six parallel uses of one recovery code.
  const staff = new Jar().take(signedIn);
  const codesPage = await (
    await post(
      "/admin/seguridad",
      { intent: "recovery-codes", password: ADMIN.password },
      staff.header,
    )
  ).headers;
  staff.take(new Response(null, { headers: codesPage }));
  const page = await (await get("/admin/seguridad", staff.header)).text();
  const recovery = /<li[^>]*>([A-Za-z0-9]{5}-[A-Za-z0-9]{5})<\/li>/.exec(page)?.[1];
  if (!recovery) throw new Error("no recovery code shown");
  const challenges = await Promise.all(
    Array.from({ length: 6 }, async () => new Jar().take(await post("/login", ADMIN)).header),
  );
  const six = await Promise.all(
    challenges.map((cookie) =>
      post("/login/verificacion", { method: "recovery", code: recovery }, cookie),
    ),
  );
  const statuses = six.map((answer) => answer.status);
  const opened = six.filter((answer) => new Jar().take(answer).get(/session_token/)).length;
  say(
    opened === 1 && statuses.every((status) => status < 500),
    `8. six parallel uses of one recovery code: ${statuses.join(", ")}, ${opened} sign-in`,
  );

  // 3. The last administrator deletes her own account.
  const deletion = await post(
    "/mi-cuenta/eliminar",
    { confirmation: "ELIMINAR", password: ADMIN.password },
    staff.header,
  );
  const stillThere = await get("/admin", staff.header);
  say(
    deletion.headers.get("Location") !== "/" && stillThere.status === 200,
    `3. the last administrator's deletion went to ${deletion.headers.get("Location")}`,
  );

  // 7. /pago-exitoso repeats its query.
  const hackme = await (await get("/pago-exitoso?service=HACKME")).text();
  say(!hackme.includes("HACKME"), "7. /pago-exitoso?service=HACKME");

  // 4. The data directory on a shared host.
  const open: string[] = [];
  const walk = (entry: string) => {
    const stat = statSync(entry);
    if ((stat.mode & 0o077) !== 0) open.push(entry);
    if (stat.isDirectory()) for (const name of readdirSync(entry)) walk(path.join(entry, name));
  };
  walk(dataDir);
  say(open.length === 0, `4. entries of DATA_DIR readable by others: ${open.length}`);

  // 2 and 9 need a session older than 10 minutes (tests/e2e/passkeys-sessions.spec.ts ages one
  // with the server stopped); a fresh one passes, as it should.
  const exported = await get("/admin/auditoria/exportar", staff.header);
  console.log(
    `fresh session, Auditoría CSV: ${exported.status} ${exported.headers.get("Content-Type")}`,
  );
  const audit = await (
    await get("/admin/auditoria?accion=staff.second_factor_failed", staff.header)
  ).text();
  say(
    audit.includes("código repetido"),
    "1. the replay is in the audit log against the administrator",
  );
} finally {
  server.kill("SIGTERM");
  await new Promise((resolve) => server.once("exit", resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.error(`${failures.length} attack(s) got through`);
  process.exit(1);
}
console.log("every finding re-tried was refused");
