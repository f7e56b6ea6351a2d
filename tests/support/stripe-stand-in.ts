import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { checkoutSession } from "./stripe-events";

export type RecordedRequest = {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  form: URLSearchParams;
};

/**
 * A local stand-in for the part of Stripe's API the site calls: creating Checkout Sessions and
 * refunds.
 * It answers in Stripe's wire format and records what the SDK sent.
 */
export class StripeStandIn {
  readonly requests: RecordedRequest[] = [];
  private server: Server | undefined;
  private sessions = 0;
  private refunds = 0;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        const form = new URLSearchParams(body);
        this.requests.push({
          method: req.method ?? "",
          path: req.url ?? "",
          headers: req.headers,
          form,
        });
        res.setHeader("Content-Type", "application/json");
        if (req.method === "POST" && req.url === "/v1/checkout/sessions") {
          const id = `cs_test_standin${++this.sessions}`;
          const session = checkoutSession({
            id,
            purchaseId: form.get("metadata[purchase_id]") ?? "",
            userId: form.get("metadata[user_id]"),
            email: form.get("customer_email"),
            status: "open",
            paymentStatus: "unpaid",
            fields: { url: `https://checkout.stripe.com/c/pay/${id}` },
          });
          res.end(JSON.stringify(session));
          return;
        }
        if (req.method === "POST" && req.url === "/v1/refunds") {
          res.end(
            JSON.stringify({
              id: `re_standin${++this.refunds}`,
              object: "refund",
              amount: Number(form.get("amount") ?? 0) || null,
              currency: "eur",
              payment_intent: form.get("payment_intent"),
              reason: form.get("reason"),
              status: "succeeded",
              metadata: { purchase_id: form.get("metadata[purchase_id]") },
            }),
          );
          return;
        }
        res.statusCode = 404;
        res.end(
          JSON.stringify({
            error: {
              type: "invalid_request_error",
              message: `Unrecognized request URL (${req.method}: ${req.url})`,
            },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Starts the stand-in and points the site at it: `settings` and STRIPE_API_BASE in process.env. */
  async startForSite(settings: Record<string, string>): Promise<void> {
    Object.assign(process.env, settings, { STRIPE_API_BASE: await this.start() });
  }

  async stop() {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
