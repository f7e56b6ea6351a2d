import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { handleContactSubmission } from "~/features/contact/contact-action.server";
import { resetConfigForTests } from "~/platform/config.server";
import { contactInquiries, mailOutbox, rateLimitBuckets } from "~/platform/db/schema";
import { newChallenge } from "~/platform/human-check/human-check.server";
import { solveHumanCheck } from "../support/human-check";
import { withHumanCheckOn } from "../support/human-check-setting";
import { setupTestDatabase } from "../support/test-database";

const database = setupTestDatabase();

type Answer = { data: unknown; init: { status?: number; headers?: Record<string, string> } | null };

function post(fields: Record<string, string>) {
  return new Request("http://localhost/contacto", {
    method: "POST",
    body: new URLSearchParams(fields),
  });
}

async function submit(fields: Record<string, string>, address = "203.0.113.7") {
  const answer = (await handleContactSubmission(post(fields), address)) as unknown as Answer;
  return {
    status: answer.init?.status ?? 200,
    body: answer.data,
    headers: answer.init?.headers ?? {},
  };
}

const valid = {
  name: "Luis Pérez",
  email: "luis@example.com",
  service: "desarrollo-web",
  message: "Quiero una web para mi restaurante.",
};

beforeEach(async () => {
  await database.db.delete(mailOutbox);
  await database.db.delete(contactInquiries);
  await database.db.delete(rateLimitBuckets);
});

describe("the contact action", () => {
  it("stores a valid enquiry with its two mails", async () => {
    const answer = await submit(valid);
    expect(answer).toMatchObject({ status: 200, body: { notice: "sent" } });
    const [row] = await database.db.select().from(contactInquiries);
    expect(row).toMatchObject({
      name: "Luis Pérez",
      email: "luis@example.com",
      service: "desarrollo-web",
    });
    expect(await database.db.select().from(mailOutbox)).toHaveLength(2);
  });

  it("answers 400 with the field errors in the spec's order and stores nothing", async () => {
    const answer = await submit({ name: "L", email: "luis", service: "", message: "corto" });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      errors: [
        { field: "name", code: "nameTooShort" },
        { field: "email", code: "emailInvalid" },
        { field: "service", code: "serviceRequired" },
        { field: "message", code: "messageTooShort" },
      ],
    });
    expect(await database.db.select().from(contactInquiries)).toHaveLength(0);
  });

  it("refuses a service the catalogue does not know, even from a forged request", async () => {
    const answer = await submit({ ...valid, service: "<b>gratis</b>" });
    expect(answer.status).toBe(400);
    expect(await database.db.select().from(contactInquiries)).toHaveLength(0);
  });

  it("answers a body that is not a form with 400, not 500", async () => {
    const request = new Request("http://localhost/contacto", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(valid),
    });
    const answer = (await handleContactSubmission(request, "203.0.113.7")) as unknown as Answer;
    expect(answer.init?.status).toBe(400);
  });

  it("drops an enquiry whose honeypot is filled while answering like a success", async () => {
    const answer = await submit({ ...valid, website: "https://spam.example" });
    expect(answer).toMatchObject({ status: 200, body: { notice: "sent" } });
    expect(await database.db.select().from(contactInquiries)).toHaveLength(0);
  });

  it("allows 5 enquiries per address in 10 minutes, then answers 429 with Retry-After", async () => {
    for (let i = 0; i < 5; i++) expect((await submit(valid)).status).toBe(200);
    const refused = await submit(valid);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ errors: [{ code: "rate-limited" }] });
    expect(Number(refused.headers["Retry-After"])).toBeGreaterThan(500);
    expect((await submit(valid, "198.51.100.1")).status).toBe(200);
    expect(await database.db.select().from(contactInquiries)).toHaveLength(6);
  });

  it("counts a visitor who rotates IPv6 addresses within one /64 as one address", async () => {
    const rotated = (i: number) => `2001:db8:77:1::${(i + 1).toString(16)}`;
    for (let i = 0; i < 5; i++) expect((await submit(valid, rotated(i))).status).toBe(200);
    expect((await submit(valid, rotated(5))).status).toBe(429);
    expect((await submit(valid, "2001:db8:77:2::1")).status).toBe(200);
  });
});

describe("the contact action's limits on mail to the visitor", () => {
  const mailsOfKind = async (kind: string) =>
    (await database.db.select().from(mailOutbox)).filter((mail) => mail.kind === kind);

  it("sends one address 3 confirmations a day however it is spelt, while enquiries and notifications go on", async () => {
    const spellings = [
      "luis@example.com",
      "Luis@Example.COM",
      "luis+web@example.com",
      "LUIS+otra@example.com",
    ];
    for (const [i, email] of spellings.entries()) {
      const answer = await submit({ ...valid, email }, `198.51.100.${i + 1}`);
      expect(answer).toMatchObject({ status: 200, body: { notice: "sent" } });
    }
    expect(await database.db.select().from(contactInquiries)).toHaveLength(4);
    expect(await mailsOfKind("contact-inbox")).toHaveLength(4);
    const confirmations = await mailsOfKind("contact-confirmation");
    expect(confirmations.map((mail) => mail.recipient).sort()).toEqual(
      spellings.slice(0, 3).sort(),
    );
    // Another address is not affected.
    await submit({ ...valid, email: "marta@example.com" }, "198.51.100.9");
    expect((await mailsOfKind("contact-confirmation")).map((mail) => mail.recipient)).toContain(
      "marta@example.com",
    );
  });
});

describe("the contact action with the human check on", () => {
  withHumanCheckOn();

  it("refuses an enquiry without a valid proof of work with 400 and stores nothing", async () => {
    const forged = await solveHumanCheck(await newChallenge(), (payload) => {
      (payload.solution as { counter: number }).counter += 1;
    });
    for (const altcha of [undefined, "", "no es una solución", forged]) {
      const answer = await submit(altcha === undefined ? valid : { ...valid, altcha });
      expect(answer).toMatchObject({
        status: 400,
        body: { errors: [{ code: "human-check-failed" }] },
      });
    }
    expect(await database.db.select().from(contactInquiries)).toHaveLength(0);
    expect(await database.db.select().from(mailOutbox)).toHaveLength(0);
  });

  it("accepts a solved challenge once: the same solution sent again is refused", async () => {
    const altcha = await solveHumanCheck(await newChallenge());
    expect(await submit({ ...valid, altcha })).toMatchObject({
      status: 200,
      body: { notice: "sent" },
    });
    expect(await submit({ ...valid, altcha })).toMatchObject({ status: 400 });
    expect(await database.db.select().from(contactInquiries)).toHaveLength(1);
  });
});

describe("a retried enquiry (decision 036)", () => {
  const keyed = (key: string) => ({ ...valid, submissionKey: key });
  const formKey = "5b0f5d36-8a8e-4c5e-9d1e-2f7a1c3b4d5e";

  it("is stored once when posted twice with the same key, and both posts are answered 'sent'", async () => {
    // The first post's commit landed, its answer was lost (a 503 as the database dropped).
    const answers = [await submit(keyed(formKey)), await submit(keyed(formKey))];
    for (const answer of answers)
      expect(answer).toMatchObject({ status: 200, body: { notice: "sent" } });
    expect(await database.db.select().from(contactInquiries)).toHaveLength(1);
    expect(await database.db.select().from(mailOutbox)).toHaveLength(2);
  });

  it("is stored once when both posts arrive at the same time", async () => {
    const answers = await Promise.all([submit(keyed(formKey)), submit(keyed(formKey))]);
    expect(answers.map((answer) => answer.body)).toEqual([{ notice: "sent" }, { notice: "sent" }]);
    expect(await database.db.select().from(contactInquiries)).toHaveLength(1);
    expect(await database.db.select().from(mailOutbox)).toHaveLength(2);
  });

  it("is told apart from another enquiry sent with the same key (a page from a shared cache)", async () => {
    await submit(keyed(formKey));
    await submit({ ...keyed(formKey), email: "otra@example.com", name: "Otra Persona" });
    expect(await database.db.select().from(contactInquiries)).toHaveLength(2);
  });

  it("is stored every time when the post has no key or a malformed one", async () => {
    await submit(valid);
    await submit(valid);
    await submit(keyed("no-es-una-clave"));
    expect(await database.db.select().from(contactInquiries)).toHaveLength(3);
  });

  it("sends the key back with a refusal, so the retry of a re-rendered page keeps it", async () => {
    const answer = await submit({ ...keyed(formKey), message: "corto" });
    expect(answer.body).toMatchObject({ values: { submissionKey: formKey } });
  });

  describe("with the proof of work on", () => {
    withHumanCheckOn();

    it("is answered 'sent' though the retry's solution was spent by the first post", async () => {
      const altcha = await solveHumanCheck(await newChallenge());
      const fields = { ...keyed(formKey), altcha };
      expect((await submit(fields)).body).toEqual({ notice: "sent" });
      expect((await submit(fields)).body).toEqual({ notice: "sent" });
      expect(await database.db.select().from(contactInquiries)).toHaveLength(1);
      // Without a key the spent solution is refused, as before.
      expect((await submit({ ...valid, altcha })).body).toMatchObject({
        errors: [{ code: "human-check-failed" }],
      });
    });
  });
});

describe("an enquiry's one transaction (decision 040)", () => {
  it("commits the sender's count, the recipient's count, the enquiry and its mails together", async () => {
    await submit(valid, "192.0.2.40");
    // xmin: the transaction that wrote each row.
    const writers = (await database.db.execute(sql`
      select xmin::text as writer from ${contactInquiries}
      union all select xmin::text from ${mailOutbox}
      union all select xmin::text from ${rateLimitBuckets}`)) as unknown as {
      rows: { writer: string }[];
    };
    expect(writers.rows).toHaveLength(5);
    expect(new Set(writers.rows.map((row) => row.writer)).size).toBe(1);
  });
});

describe("posts at the same time (decision 040)", () => {
  const limits = { CONTACT_RATE_LIMIT: "1", CONTACT_CONFIRMATIONS_PER_ADDRESS: "1" };
  beforeAll(() => {
    Object.assign(process.env, limits);
    resetConfigForTests();
  });
  afterAll(() => {
    for (const name of Object.keys(limits)) delete process.env[name];
    resetConfigForTests();
  });

  /**
   * Sends `posts` at once. On PostgreSQL the rate_limit_buckets rows of `keys` are first inserted
   * by a transaction left open until every post's statement waits for one of them, so the posts
   * are certainly counted at the same time; PGlite has one connection and takes them in turn.
   */
  async function atOnce<T>(keys: string[], posts: (() => Promise<T>)[]): Promise<T[]> {
    if (!database.url) return Promise.all(posts.map((post) => post()));
    const blocker = new pg.Client({ connectionString: database.url });
    await blocker.connect();
    try {
      await blocker.query("begin");
      await blocker.query(
        "insert into rate_limit_buckets (key, window_started_at, hits) select unnest($1::text[]), now(), 0",
        [keys],
      );
      const running = posts.map((post) => post());
      for (let waited = 0; ; waited += 20) {
        const { rows } = await blocker.query<{ waiting: number }>(
          "select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
        );
        if (rows[0]!.waiting >= posts.length) break;
        if (waited > 10_000) throw new Error(`only ${rows[0]!.waiting} posts waited`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await blocker.query("commit");
      return await Promise.all(running);
    } finally {
      await blocker.end();
    }
  }

  it("lets one of two posts from one address past a limit of 1; the other gets 429", async () => {
    const address = "192.0.2.50";
    const answers = await atOnce(
      [`contact:${address}`],
      [() => submit(valid, address), () => submit({ ...valid, name: "Otra Persona" }, address)],
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 429]);
    expect(await database.db.select().from(contactInquiries)).toHaveLength(1);
    expect(await database.db.select().from(mailOutbox)).toHaveLength(2);
  });

  it("sends one inbox one copy of two enquiries at once, under a limit of 1", async () => {
    const answers = await atOnce(
      ["contact-confirmation:to:luis@example.com"],
      [() => submit(valid, "192.0.2.61"), () => submit(valid, "192.0.2.62")],
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await database.db.select().from(contactInquiries)).toHaveLength(2);
    const kinds = (await database.db.select().from(mailOutbox)).map((mail) => mail.kind).sort();
    expect(kinds).toEqual(["contact-confirmation", "contact-inbox", "contact-inbox"]);
  });

  describe("with the proof of work on", () => {
    withHumanCheckOn();

    it("takes one solution sent twice at once from two addresses once", async () => {
      const altcha = await solveHumanCheck(await newChallenge());
      const signature = (
        JSON.parse(Buffer.from(altcha, "base64").toString()) as {
          challenge: { signature: string };
        }
      ).challenge.signature;
      const answers = await atOnce(
        [`altcha:${signature}`],
        [
          () => submit({ ...valid, altcha }, "192.0.2.71"),
          () => submit({ ...valid, altcha }, "192.0.2.72"),
        ],
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
      expect(await database.db.select().from(contactInquiries)).toHaveLength(1);
    });
  });
});
