import { formPost } from "./customer-session";

export type ActionAnswer = {
  status: number;
  /** The redirect's Location, or the data() answer's body. */
  body: unknown;
  headers: Headers;
};

type AccountAction = (input: { request: Request; clientAddress: string }) => Promise<unknown>;

/**
 * Runs an account action the way React Router would: a form post from this site (with `cookie`,
 * if any) from `clientAddress`, its redirects and data() answers read alike.
 */
export async function runAction(
  action: AccountAction,
  fields: Record<string, string>,
  { clientAddress = "192.0.2.10", cookie = "" }: { clientAddress?: string; cookie?: string } = {},
): Promise<ActionAnswer> {
  const answer = (await action({ request: formPost("/form", fields, cookie), clientAddress })) as
    Response | { data: unknown; init: ResponseInit | null };
  if (answer instanceof Response)
    return { status: answer.status, body: answer.headers.get("Location"), headers: answer.headers };
  return {
    status: answer.init?.status ?? 200,
    body: answer.data,
    headers: new Headers(answer.init?.headers),
  };
}

/** The `name=value` pairs of an answer's Set-Cookie headers, as a Cookie header. */
export const cookiesOf = (headers: Headers) =>
  headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .join("; ");
