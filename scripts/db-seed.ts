/**
 * npm run db:seed [-- --large] [-- --reset]: fills the database with made-up customers,
 * purchases, payments, customers' totals, invoices with their chained VERI*FACTU records
 * (db-seed-invoices.ts), support tickets and contact enquiries, so the admin panel can be tried
 * (a few hundred rows) or measured at scale (--large: 100,000 users, 1,000,000 purchases and
 * payments, about 860,000 invoices and records, 200,000 tickets, 200,000 enquiries).
 *
 * The database is the server's: PostgreSQL when DATABASE_URL is set, otherwise the embedded
 * PGlite database in DATA_DIR (demo size only; stop the server first, a PGlite directory takes
 * one process). Both run the same statements through one small adapter (`query(text, values)`
 * answering `{ rows }`, as pg and PGlite both do).
 *
 * It only fills an empty database: when the database already holds data it stops and says so,
 * unless --reset is given, which first empties every table (it says which database it empties).
 * Everything happens in one transaction: an interrupted run leaves the database as it was.
 *
 * Speed: rows come from generate_series in a few INSERT … SELECT statements; the secondary
 * indexes of the filled tables are dropped first and built again at the end (a trigram GIN index
 * fed row by row is many times slower than one built in one go), and the payments' day-totals
 * trigger is off during the load and its table rebuilt once by refresh_payment_day_totals().
 * The made-up addresses use the reserved .example domain: no mail can reach a real person.
 */
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { contactServiceCodes, services } from "../app/features/catalogue/services";
import { ticketPriorities, type TicketCategory } from "../app/features/support/ticket-rules";
import { ConfigError, getConfig } from "../app/platform/config.server";
import { openDatabase } from "../app/platform/db/client.server";
import {
  BILLING_ADDRESS,
  BILLING_TAX_ID,
  completeInvoice,
  INVOICE_TABLES,
  seedInvoices,
} from "./db-seed-invoices";

/** What the seed needs of a connection: pg's and PGlite's `query(text, values)`, rows as `{ rows }`. */
type SeedClient = {
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: Row[] }>;
};

type Sizes = { users: number; orders: number; tickets: number; inquiries: number };

const LARGE: Sizes = { users: 100_000, orders: 1_000_000, tickets: 200_000, inquiries: 200_000 };
const DEMO: Sizes = { users: 200, orders: 600, tickets: 120, inquiries: 150 };

/** Tables the seed writes; their secondary indexes are rebuilt after the load. */
const FILLED_TABLES = [
  "users",
  "profiles",
  "user_roles",
  "purchases",
  "payments",
  "customers",
  "support_tickets",
  "ticket_messages",
  "contact_inquiries",
  ...INVOICE_TABLES,
];

/** The three years the data spans, as SQL. */
const SPAN = "interval '1100 days'";

/** The share of people who ever buy. */
const BUYING_SHARE = 0.7;

/** Staff accounts (admins without a password: nobody can sign in as them) handle the enquiries. */
const STAFF = [
  { name: "Laura Soporte", email: "laura.soporte@equipo.example" },
  { name: "Diego Soporte", email: "diego.soporte@equipo.example" },
];

// prettier-ignore
const firstNames = [
  "María", "Lucía", "Carmen", "Ana", "Laura", "Marta", "Sara", "Paula", "Elena", "Cristina",
  "Isabel", "Pilar", "Raquel", "Nuria", "Alba", "Claudia", "Irene", "Rocío", "Silvia", "Beatriz",
  "Patricia", "Sofía", "Julia", "Andrea", "Noelia", "Inés", "Teresa", "Montserrat", "Ainhoa",
  "Aitana", "Begoña", "Nerea", "Antonio", "José", "Manuel", "Francisco", "David", "Juan", "Javier",
  "Daniel", "Carlos", "Jesús", "Alejandro", "Miguel", "Rafael", "Pablo", "Sergio", "Fernando",
  "Jorge", "Luis", "Alberto", "Álvaro", "Adrián", "Diego", "Raúl", "Iván", "Rubén", "Óscar",
  "Andrés", "Joaquín", "Íñigo", "Hugo", "Mario", "Marcos", "Jaume", "Xavier", "Iker", "Unai",
];

// prettier-ignore
const surnames = [
  "García", "Rodríguez", "González", "Fernández", "López", "Martínez", "Sánchez", "Pérez", "Gómez",
  "Martín", "Jiménez", "Ruiz", "Hernández", "Díaz", "Moreno", "Muñoz", "Álvarez", "Romero",
  "Alonso", "Gutiérrez", "Navarro", "Torres", "Domínguez", "Vázquez", "Ramos", "Gil", "Ramírez",
  "Serrano", "Blanco", "Molina", "Morales", "Suárez", "Ortega", "Delgado", "Castro", "Ortiz",
  "Rubio", "Marín", "Sanz", "Núñez", "Iglesias", "Medina", "Garrido", "Cortés", "Castillo",
  "Santos", "Lozano", "Guerrero", "Cano", "Prieto", "Méndez", "Cruz", "Calvo", "Gallego", "Vidal",
  "León", "Márquez", "Herrera", "Peña", "Flores", "Cabrera", "Campos", "Vega", "Fuentes",
  "Carrasco", "Díez", "Caballero", "Reyes", "Nieto", "Aguilar", "Pascual", "Santana", "Herrero",
  "Lorenzo", "Montero", "Hidalgo", "Giménez", "Ibáñez", "Ferrer", "Durán", "Santiago", "Benítez",
  "Mora", "Vicente", "Vargas", "Arias", "Carmona", "Crespo", "Román", "Pastor", "Soto", "Sáez",
  "Velasco", "Moya", "Soler", "Parra", "Esteban", "Bravo", "Gallardo", "Rojas", "Etxeberria",
  "Goikoetxea", "Puig", "Vilanova", "Castells", "Oliveira",
];

/** Reserved names (RFC 2606): they look like the usual providers and reach nobody. */
// prettier-ignore
const mailDomains = [
  "gmail.example", "gmail.example", "gmail.example", "hotmail.example", "hotmail.example",
  "yahoo.example", "outlook.example", "outlook.example", "icloud.example", "telefonica.example",
  "movistar.example", "protonmail.example",
];

/** Company mailboxes: `<surname><suffix>.example`. */
const companySuffixes = ["asesores", "abogados", "consultores", "talleres", "clinica", "reformas"];

// prettier-ignore
const companies = [
  "Construcciones", "Asesoría", "Clínica Dental", "Talleres", "Inmobiliaria", "Panadería",
  "Gestoría", "Distribuciones", "Farmacia", "Reformas", "Transportes", "Hostelería",
];

/** Each service's share of the orders, in catalogue order (cheap ones sell more). */
const serviceWeights = [0.3, 0.25, 0.15, 0.12, 0.1, 0.08];

/** What customers write about, with the category they file it under. */
const ticketSubjects: [subject: string, category: TicketCategory][] = [
  ["No puedo acceder al panel de mi web", "consulta_tecnica"],
  ["El correo profesional no envía mensajes", "consulta_tecnica"],
  ["La web tarda mucho en cargar", "incidencia_servicio"],
  ["Duda sobre el informe de la auditoría", "consulta_tecnica"],
  ["Error al restaurar la copia de seguridad", "incidencia_servicio"],
  ["El certificado SSL ha caducado", "incidencia_servicio"],
  ["Virus detectado en el ordenador de la oficina", "consulta_tecnica"],
  ["No recibo el correo de confirmación", "consulta_tecnica"],
  ["El formulario de contacto no llega", "incidencia_servicio"],
  ["Problema con la impresora de red", "consulta_tecnica"],
  ["El chatbot responde en inglés", "incidencia_servicio"],
  ["Reseñas negativas que siguen apareciendo", "incidencia_servicio"],
  ["Factura duplicada en mi último pago", "facturacion"],
  ["Solicitud de factura con NIF de empresa", "facturacion"],
  ["Cobro que no reconozco", "facturacion"],
  ["Cambio de datos de facturación", "facturacion"],
  ["Necesito reprogramar la videollamada", "solicitud_cambio"],
  ["Quiero ampliar el servicio contratado", "solicitud_cambio"],
  ["Cambiar el texto de la página de inicio", "solicitud_cambio"],
  ["Consulta sobre el plan de acción", "otro"],
  ["¿Hacéis descuentos para asociaciones?", "otro"],
];

const ticketMessages = [
  "Hola, desde ayer no consigo entrar y me aparece un mensaje de error. ¿Podéis revisarlo?",
  "Buenos días, os escribo porque el problema ha vuelto a aparecer después de la última actualización.",
  "Necesito que me ayudéis con esto lo antes posible, tenemos clientes esperando.",
  "Adjunto los detalles del pedido. Gracias de antemano por la ayuda.",
  "¿Me podéis indicar los pasos a seguir? No encuentro la opción en el panel.",
  "He probado a reiniciar el equipo y sigue igual. Quedo a la espera de vuestra respuesta.",
];

const staffReplies = [
  "Hola, gracias por escribirnos. Ya lo estamos revisando y te decimos algo en breve.",
  "Buenos días, hemos aplicado la corrección. ¿Puedes comprobar si ya te funciona?",
  "Te hemos enviado las instrucciones por correo. Si necesitas más ayuda, responde a este ticket.",
];

/** Per contact service code (contactServiceCodes order): what visitors ask. */
const inquiryMessages = [
  "Tengo un portátil que va muy lento y se bloquea a menudo, ¿podéis ayudarme en remoto?",
  "Queremos automatizar la atención al cliente con inteligencia artificial. ¿Qué nos recomendáis?",
  "Necesito una web para mi negocio con formulario de contacto y reservas. ¿Qué plazos manejáis?",
  "Hemos recibido correos sospechosos en nombre de nuestra empresa. ¿Hacéis auditorías de seguridad?",
  "Aparecen reseñas falsas de mi restaurante en Google. ¿Cómo podéis ayudarme con la reputación?",
];

function options() {
  const args = new Set(process.argv.slice(2));
  const known = new Set(["--large", "--reset"]);
  const unknown = [...args].filter((arg) => !known.has(arg));
  if (unknown.length > 0) {
    console.error(`Opción desconocida: ${unknown.join(" ")}`);
    console.error("Uso: npm run db:seed [-- --large] [-- --reset]");
    process.exit(2);
  }
  return { large: args.has("--large"), reset: args.has("--reset") };
}

type Target =
  | { kind: "postgres"; url: string; where: string }
  | { kind: "pglite"; dataDir: string; where: string };

/** The server's database: DATABASE_URL's PostgreSQL, or the embedded one in DATA_DIR. */
function target(large: boolean): Target {
  if (process.env.NODE_ENV === "production") {
    console.error("db:seed no se ejecuta con NODE_ENV=production: inventa clientes y pagos.");
    process.exit(2);
  }
  let config;
  try {
    config = getConfig();
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(2);
  }
  if (config.databaseUrl) {
    const url = new URL(config.databaseUrl);
    return {
      kind: "postgres",
      url: config.databaseUrl,
      where: `${url.hostname}:${url.port || 5432}${url.pathname}`,
    };
  }
  if (large) {
    console.error(
      "db:seed --large solo llena PostgreSQL: define DATABASE_URL (postgres://usuario@host:5432/base).\n" +
        "La base embebida (PGlite) recibe solo la semilla de demostración (npm run db:seed): un millón de filas es para medir en PostgreSQL.",
    );
    process.exit(2);
  }
  // As app/platform/db/database.server.ts opens it.
  const dataDir = path.join(config.dataDir, "db");
  return { kind: "pglite", dataDir, where: `${dataDir} (PGlite)` };
}

/** Migrates the target and opens the one connection the seed runs on. */
async function connect(to: Target): Promise<{ client: SeedClient; close(): Promise<void> }> {
  if (to.kind === "pglite") {
    const database = openDatabase({
      kind: "pglite",
      dataDir: to.dataDir,
      template: path.resolve("build/pglite-template"),
    });
    try {
      await database.migrate();
    } catch (error) {
      await database.close();
      throw error;
    }
    // PGlite has a single connection: the seed runs on the one under Drizzle (its `$client`).
    const pglite = (database.db as unknown as { $client: PGlite }).$client;
    return {
      client: { query: (text, values) => pglite.query(text, values) },
      close: () => database.close(),
    };
  }
  const database = openDatabase({ kind: "postgres", url: to.url, maxConnections: 1 });
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
  const client = new pg.Client({ connectionString: to.url });
  await client.connect();
  return {
    client: {
      query: async <Row>(text: string, values?: unknown[]) =>
        (await client.query(text, values)) as unknown as { rows: Row[] },
    },
    close: () => client.end(),
  };
}

const elapsed = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  console.log(`  ${label.padEnd(44)} ${elapsed(started).padStart(8)}`);
  return result;
}

function step(client: SeedClient, label: string, text: string, values: unknown[] = []) {
  return timed(label, () => client.query(text, values));
}

/** Rows held by the tables a seed would write or that show real use. */
async function existingRows(client: SeedClient) {
  const { rows } = await client.query<{ table: string; rows: string }>(`
    select 'usuarios' as table, count(*) as rows from users
    union all select 'pagos', count(*) from payments
    union all select 'tickets', count(*) from support_tickets
    union all select 'consultas', count(*) from contact_inquiries`);
  return rows.map((row) => ({ table: row.table, rows: Number(row.rows) }));
}

/**
 * Every table of the application (not the migrations' own table, which lives in "drizzle"), but
 * the staff audit log: its trigger refuses TRUNCATE (decision 043), and its rows name no table.
 */
async function emptyEveryTable(client: SeedClient) {
  const { rows } = await client.query<{ name: string }>(
    "select quote_ident(tablename) as name from pg_tables where schemaname = 'public' and tablename <> 'staff_audit_log'",
  );
  if (rows.length > 0)
    await step(
      client,
      "--reset: vaciar todas las tablas",
      `truncate ${rows.map((row) => row.name).join(", ")} restart identity cascade`,
    );
}

/**
 * Drops the foreign keys and the secondary indexes (those no constraint owns) of the filled
 * tables; returns the statements that restore them, foreign keys last: adding one checks every
 * row in one join, far faster than a lookup per inserted row, and still refuses a broken seed.
 */
async function dropIndexesAndForeignKeys(client: SeedClient): Promise<string[]> {
  const foreignKeys = await client.query<{ owner: string; name: string; definition: string }>(
    `select c.conrelid::regclass::text as owner, quote_ident(c.conname) as name,
            pg_get_constraintdef(c.oid) as definition
       from pg_constraint c
       join pg_class t on t.oid = c.conrelid
       join pg_namespace n on n.oid = t.relnamespace
      where c.contype = 'f' and n.nspname = 'public' and t.relname = any($1)`,
    [FILLED_TABLES],
  );
  const indexes = await client.query<{ name: string; definition: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
       from pg_index i
       join pg_class t on t.oid = i.indrelid
       join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = 'public' and t.relname = any($1)
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    [FILLED_TABLES],
  );
  for (const key of foreignKeys.rows)
    await client.query(`alter table ${key.owner} drop constraint ${key.name}`);
  for (const index of indexes.rows) await client.query(`drop index ${index.name}`);
  return [
    ...indexes.rows.map((index) => index.definition),
    ...foreignKeys.rows.map(
      (key) => `alter table ${key.owner} add constraint ${key.name} ${key.definition}`,
    ),
  ];
}

/** Runs the statements, timing them as one step and naming the slow ones. */
async function restore(client: SeedClient, statements: string[]) {
  const started = performance.now();
  const slow: string[] = [];
  for (const statement of statements) {
    const since = performance.now();
    await client.query(statement);
    const seconds = (performance.now() - since) / 1000;
    const name = /^(?:create (?:unique )?index|alter table \S+ add constraint) (\S+)/i.exec(
      statement,
    );
    if (seconds >= 2) slow.push(`${name?.[1] ?? statement.slice(0, 40)} ${seconds.toFixed(1)} s`);
  }
  console.log(
    `  ${`índices y claves ajenas (${statements.length})`.padEnd(44)} ${elapsed(started).padStart(8)}`,
  );
  if (slow.length > 0) console.log(`    los más lentos: ${slow.join(", ")}`);
}

async function fill(client: SeedClient, sizes: Sizes) {
  const customerCount = sizes.users - STAFF.length;
  const catalogue = [...services].sort((a, b) => a.id - b.id);
  // The service of an order: 1..6 from b.svc_draw, by the weights (constants of this file).
  let share = 0;
  const serviceDraw = `case ${serviceWeights
    .slice(0, -1)
    .map((weight, i) => `when b.svc_draw < ${(share += weight).toFixed(4)} then ${i + 1}`)
    .join(" ")} else ${serviceWeights.length} end`;

  // Same random numbers on every run.
  await client.query("select setseed(0.2026)");

  await step(
    client,
    `personas (${customerCount.toLocaleString("es-ES")})`,
    `create temp table seed_people on commit drop as
     with picked as (
       select n,
              $2::text[] as firsts, $3::text[] as lasts,
              1 + floor(random() * array_length($2::text[], 1))::int as f,
              1 + floor(random() * array_length($3::text[], 1))::int as l1,
              1 + floor(random() * array_length($3::text[], 1))::int as l2,
              random() as shape, random() as dom,
              -- Sign-ups at a steady pace over three years, in the order of n.
              now() - ${SPAN} + ${SPAN} * ((n - random()) / $1::int) as created_at
         from generate_series(1, $1::int) as n
     ), named as (
       select n, created_at, shape, dom,
              firsts[f] as first_name, lasts[l1] as last1, lasts[l2] as last2,
              translate(lower(firsts[f]), 'áéíóúüñç', 'aeiouunc') as f_ascii,
              translate(lower(lasts[l1]), 'áéíóúüñç', 'aeiouunc') as l1_ascii,
              translate(lower(lasts[l2]), 'áéíóúüñç', 'aeiouunc') as l2_ascii
         from picked
     )
     select n,
            substr(md5('seed-user-' || n), 1, 32) as id,
            first_name || ' ' || last1 || ' ' || last2 as full_name,
            -- Every pattern ends in the number n after a non-digit: addresses are unique.
            case floor(shape * 5)::int
              when 0 then f_ascii || '.' || l1_ascii || n
              when 1 then f_ascii || l1_ascii || '_' || n
              when 2 then left(f_ascii, 1) || l1_ascii || l2_ascii || n
              when 3 then l1_ascii || '.' || f_ascii || n
              else f_ascii || '_' || l2_ascii || '.' || n
            end || '@' ||
            case when dom < 0.15 then l1_ascii || ($5::text[])[1 + (n % array_length($5::text[], 1))] || '.example'
                 else ($4::text[])[1 + (n % array_length($4::text[], 1))] end as email,
            created_at
       from named`,
    [customerCount, firstNames, surnames, mailDomains, companySuffixes],
  );
  await client.query("create index on seed_people (n)");

  await timed(`usuarios y perfiles (${sizes.users.toLocaleString("es-ES")})`, async () => {
    await client.query(
      `create temp table seed_users on commit drop as
       select 'seedstaff' || lpad(i::text, 23, '0') as id, email, true as verified,
              now() - interval '1200 days' as created_at, name as full_name,
              null::text as phone, null::text as company
         from unnest($1::text[], $2::text[]) with ordinality as s(name, email, i)
       union all
       select id, email, random() < 0.93, created_at,
              case when random() < 0.75 then full_name end,
              case when random() < 0.4 then '+34 6' || lpad(floor(random() * 1e8)::text, 8, '0') end,
              case when random() < 0.15 then
                ($3::text[])[1 + n % array_length($3::text[], 1)] || ' ' || split_part(full_name, ' ', 2) end
         from seed_people`,
      [STAFF.map((s) => s.name), STAFF.map((s) => s.email), companies],
    );
    // Better Auth names an account after its address until the profile says otherwise.
    await client.query(
      `insert into users (id, name, email, email_verified, created_at, updated_at)
       select id, split_part(email, '@', 1), email, verified, created_at, created_at from seed_users`,
    );
    await client.query(
      `insert into profiles (id, full_name, phone, company, email, email_confirmed, created_at, updated_at)
       select id, full_name, phone, company, email, verified, created_at, created_at from seed_users`,
    );
    await client.query(
      `insert into user_roles (user_id, role, created_at)
       select id, 'admin', created_at from users where id like 'seedstaff%'`,
    );
  });

  await step(
    client,
    `pedidos (${sizes.orders.toLocaleString("es-ES")}, tabla temporal)`,
    `create temp table seed_orders on commit drop as
     with drawn as (
       select n, random() as svc_draw, random() as status_draw, random() as buyer_draw,
              -- Sales grow with the customer base (linearly over the three years), plus a
              -- busier last quarter: about a quarter of them fall in the chart's 90 days.
              now() - case when random() < 0.12 then interval '90 days' * random()
                           else ${SPAN} * (1 - sqrt(random())) end as wanted
         from generate_series(1, $1::int) as n
     ), signed_up as (
       -- How many people had signed up by then (people sign up in the order of n).
       select *, greatest(1, floor($2::int * extract(epoch from wanted - (now() - ${SPAN}))
                                           / extract(epoch from ${SPAN})))::int as known
         from drawn
     ), bought as (
       -- Seven in ten people ever buy; those who signed up early buy more often.
       select *, least(known, 1 + floor(floor(power(buyer_draw, 1.3) * known * $3::float8)
                                        / $3::float8))::int as person
         from signed_up
     )
     select b.n, gen_random_uuid() as purchase_id, b.person, p.id as user_id, p.email, p.full_name,
            ${serviceDraw} as svc,
            case when b.status_draw < 0.80 then 'completed'
                 when b.status_draw < 0.90 then 'pending'
                 when b.status_draw < 0.97 then 'failed'
                 else 'refunded' end as status,
            greatest(b.wanted, p.created_at) as created_at
       from bought b join seed_people p on p.n = b.person`,
    [sizes.orders, customerCount, BUYING_SHARE],
  );

  await step(
    client,
    "compras",
    `insert into purchases (id, user_id, service_id, service_name, price, currency, status, provider,
                            checkout_session_id, payment_intent_id, completed_at, created_at, updated_at,
                            billing_name, billing_tax_id, billing_address)
     select purchase_id, user_id, ($1::int[])[svc], ($2::text[])[svc], ($3::int[])[svc], 'EUR', status,
            'stripe', 'cs_seed_' || n,
            case when status in ('completed', 'refunded') then 'pi_seed_' || n end,
            case when status in ('completed', 'refunded') then created_at + interval '2 minutes' end,
            created_at,
            created_at + case when status = 'refunded' then interval '9 days' else interval '2 minutes' end,
            -- The buyer's billing data, asked at checkout for a complete invoice (F1).
            case when ${completeInvoice("($3::int[])[svc]")} then full_name end,
            case when ${completeInvoice("($3::int[])[svc]")} then ${BILLING_TAX_ID} end,
            case when ${completeInvoice("($3::int[])[svc]")} then ${BILLING_ADDRESS} end
       from seed_orders`,
    [catalogue.map((s) => s.id), catalogue.map((s) => s.name), catalogue.map((s) => s.priceCents)],
  );

  await client.query("alter table payments disable trigger user");
  await step(
    client,
    "pagos (trigger de totales diarios apagado)",
    `insert into payments (purchase_id, customer_email, service_name, amount, currency, status, created_at)
     select purchase_id, email, ($1::text[])[svc], ($2::int[])[svc], 'EUR', status,
            created_at + interval '2 minutes'
       from seed_orders`,
    [catalogue.map((s) => s.name), catalogue.map((s) => s.priceCents)],
  );
  await client.query("alter table payments enable trigger user");
  await step(client, "refresh_payment_day_totals()", "select refresh_payment_day_totals()");
  await seedInvoices(client, timed);

  // As the webhook keeps them: one row per address that ever completed a payment, with the
  // completed ones' totals (a refund takes its payment back out).
  await step(
    client,
    "clientes",
    `insert into customers (email, name, total_spent, total_orders, created_at, updated_at)
     select email, min(full_name),
            coalesce(sum(($1::int[])[svc]) filter (where status = 'completed'), 0),
            count(*) filter (where status = 'completed'),
            min(created_at) + interval '2 minutes', max(created_at) + interval '2 minutes'
       from seed_orders
      where status in ('completed', 'refunded')
      group by email`,
    [catalogue.map((s) => s.priceCents)],
  );

  await step(
    client,
    `tickets (${sizes.tickets.toLocaleString("es-ES")})`,
    `create temp table seed_tickets on commit drop as
     with drawn as (
       select n, 1 + floor(random() * $2::int)::int as k, random() as link_draw,
              random() as delay_draw, random() as status_draw, random() as cat_draw,
              random() as prio_draw, random() as subject_draw, random() as reply_draw,
              random() as close_draw
         from generate_series(1, $1::int) as n
     ), dated as (
       -- A ticket follows one of the customer's purchases, within three weeks of it.
       select d.*, o.user_id, o.svc,
              case when d.link_draw < 0.4 then o.purchase_id end as purchase_id,
              least(now() - interval '1 minute' * (1 + d.delay_draw * 60),
                    o.created_at + interval '21 days' * d.delay_draw) as created_at
         from drawn d join seed_orders o on o.n = d.k
     ), aged as (
       select *, extract(epoch from now() - created_at) / 86400 as age_days,
              1 + floor(subject_draw * array_length($3::text[], 1))::int as subject
         from dated
     ), statused as (
       select *,
              case when age_days < 2 then
                     case when status_draw < 0.6 then 'open' when status_draw < 0.95 then 'in_progress' else 'resolved' end
                   when age_days < 14 then
                     case when status_draw < 0.2 then 'open' when status_draw < 0.6 then 'in_progress'
                          when status_draw < 0.85 then 'resolved' else 'closed' end
                   else
                     case when status_draw < 0.02 then 'open' when status_draw < 0.05 then 'in_progress'
                          when status_draw < 0.3 then 'resolved' else 'closed' end
              end as status
         from aged
     )
     select n, gen_random_uuid() as id, user_id, purchase_id, created_at, status,
            'TK-' || extract(year from created_at at time zone 'UTC') || '-' ||
              lpad(row_number() over (partition by extract(year from created_at at time zone 'UTC')
                                      order by created_at, n)::text, 6, '0') as ticket_number,
            extract(year from created_at at time zone 'UTC')::int as year,
            ($3::text[])[subject] ||
              case when cat_draw < 0.5 then ' (' || ($4::text[])[svc] || ')' else '' end as subject,
            ($5::text[])[subject] as category,
            -- ticketPriorities: urgent 5 %, high 20 %, medium 55 %, low 20 %.
            ($6::text[])[case when prio_draw < 0.05 then 1 when prio_draw < 0.25 then 2
                              when prio_draw < 0.8 then 3 else 4 end] as priority,
            -- Staff answer most within the promised 24 hours; a tenth later.
            case when status <> 'open' then
                   created_at + least(interval '30 hours', now() - created_at) * reply_draw end as first_staff_reply_at,
            case when status in ('resolved', 'closed') then
                   created_at + least(interval '10 days', now() - created_at) * (0.1 + 0.9 * close_draw) end as closed_at
       from statused`,
    [
      sizes.tickets,
      sizes.orders,
      ticketSubjects.map(([subject]) => subject),
      catalogue.map((s) => s.name),
      ticketSubjects.map(([, category]) => category),
      [...ticketPriorities],
    ],
  );

  await step(
    client,
    "tickets",
    `insert into support_tickets (id, ticket_number, user_id, subject, category, priority, status,
                                  purchase_id, first_response_due_at, first_staff_reply_at,
                                  closed_at, created_at, updated_at)
     select id, ticket_number, user_id, subject, category, priority, status, purchase_id,
            created_at + interval '24 hours', first_staff_reply_at, closed_at, created_at,
            coalesce(closed_at, first_staff_reply_at, created_at)
       from seed_tickets`,
  );
  // The customer's opening message, and the first staff reply where there was one.
  await step(
    client,
    "mensajes de los tickets",
    `insert into ticket_messages (ticket_id, author, author_id, body, created_at)
     select id, 'customer', user_id, ($1::text[])[1 + n % array_length($1::text[], 1)], created_at
       from seed_tickets
     union all
     select id, 'staff', 'seedstaff' || lpad((1 + n % $3::int)::text, 23, '0'),
            ($2::text[])[1 + n % array_length($2::text[], 1)], first_staff_reply_at
       from seed_tickets where first_staff_reply_at is not null`,
    [ticketMessages, staffReplies, STAFF.length],
  );
  // New tickets continue after the seeded numbers of their year.
  await client.query(
    `insert into ticket_counters (year, last_number)
     select year, count(*) from seed_tickets group by year
     on conflict (year) do update
       set last_number = greatest(ticket_counters.last_number, excluded.last_number)`,
  );

  await step(
    client,
    `consultas (${sizes.inquiries.toLocaleString("es-ES")})`,
    `with drawn as (
       select n, random() as who_draw, random() as svc_draw, random() as recent_draw,
              random() as when_draw, random() as handled_draw, random() as delay_draw,
              1 + floor(random() * $2::int)::int as person,
              1 + floor(random() * $2::int)::int as other
         from generate_series(1, $1::int) as n
     ), written as (
       select d.n, d.svc_draw, d.handled_draw, d.delay_draw,
              now() - case when d.recent_draw < 0.3 then interval '90 days' else ${SPAN} end
                      * d.when_draw as created_at,
              -- A third from customers; the rest from visitors (a made-up mix of two people).
              case when d.who_draw < 0.33 then p.full_name
                   else split_part(o.full_name, ' ', 1) || ' ' || split_part(o.full_name, ' ', 2) end as name,
              case when d.who_draw < 0.33 then p.email
                   else split_part(o.email, '@', 1) || 'v' || d.n || '@' ||
                        ($6::text[])[1 + d.n % array_length($6::text[], 1)] end as email
         from drawn d
         join seed_people p on p.n = d.person
         join seed_people o on o.n = d.other
     )
     insert into contact_inquiries (name, email, service, message, created_at, handled_at, handled_by)
     select name, email, ($3::text[])[1 + floor(svc_draw * array_length($3::text[], 1))::int],
            ($4::text[])[1 + floor(svc_draw * array_length($4::text[], 1))::int], created_at, h.handled_at,
            case when h.handled_at is not null then 'seedstaff' || lpad((1 + n % $5::int)::text, 23, '0') end
       from written
       cross join lateral (
         -- Old enquiries were mostly dealt with; recent ones mostly wait.
         select case when handled_draw < case when created_at < now() - interval '30 days' then 0.9
                                              when created_at < now() - interval '7 days' then 0.6
                                              else 0.2 end
                     then created_at + least(interval '3 days', now() - created_at) * delay_draw end as handled_at
       ) h`,
    [
      sizes.inquiries,
      customerCount,
      [...contactServiceCodes],
      inquiryMessages,
      STAFF.length,
      mailDomains,
    ],
  );
}

async function counts(client: SeedClient) {
  const { rows } = await client.query<Record<string, string>>(`
    select (select count(*) from users) as usuarios,
           (select count(*) from profiles) as perfiles,
           (select count(*) from purchases) as compras,
           (select count(*) from payments) as pagos,
           (select count(*) from customers) as clientes,
           (select count(*) from invoices) as facturas,
           (select count(*) from verifactu_records) as registros_verifactu,
           (select count(*) from support_tickets) as tickets,
           (select count(*) from ticket_messages) as mensajes,
           (select count(*) from contact_inquiries) as consultas`);
  return Object.fromEntries(Object.entries(rows[0]!).map(([key, value]) => [key, Number(value)]));
}

async function main() {
  const { large, reset } = options();
  const to = target(large);
  const sizes = large ? LARGE : DEMO;
  const started = performance.now();

  const { client, close } = await connect(to);
  console.log(`Migraciones aplicadas en ${to.where} (${elapsed(started)}).`);
  try {
    const present = (await existingRows(client)).filter((entry) => entry.rows > 0);
    if (present.length > 0 && !reset) {
      console.error(
        `La base de datos ${to.where} ya tiene datos (${present
          .map((entry) => `${entry.rows.toLocaleString("es-ES")} ${entry.table}`)
          .join(", ")}): db:seed solo llena una base vacía.\n` +
          "Para vaciarla antes (se borran TODOS sus datos) añade --reset.",
      );
      process.exitCode = 1;
      return;
    }
    console.log(
      `Llenando ${to.where} (${large ? "--large" : "demo"}${present.length > 0 ? ", --reset: se vacía antes" : ""}):`,
    );
    await client.query("begin");
    try {
      if (to.kind === "postgres") {
        await client.query("set local synchronous_commit = off");
        await client.query("set local maintenance_work_mem = '1GB'");
        await client.query("set local work_mem = '256MB'");
      }
      if (reset) await emptyEveryTable(client);
      const restoring = await dropIndexesAndForeignKeys(client);
      await fill(client, sizes);
      await restore(client, restoring);
      await client.query("commit");
    } catch (error) {
      await client.query("rollback");
      throw error;
    }
    await step(client, "vacuum analyze", "vacuum analyze");
    const rows = await counts(client);
    console.log(`Hecho en ${elapsed(started)}.`);
    console.table(rows);
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
