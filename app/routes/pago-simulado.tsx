import type { Route } from "./+types/pago-simulado";
import {
  requireSimulatedCheckout,
  runSimulatedOutcome,
  simulatedCheckoutPage,
} from "~/features/payments/simulated-checkout.server";
import { SimulatedCheckoutPage } from "~/features/payments/simulated-checkout-page";
import { privatePageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, {
    title: "Pago simulado",
    description: "Pasarela de pago simulada.",
    path: "/pago-simulado",
  });

export async function loader({ request, params }: Route.LoaderArgs) {
  return simulatedCheckoutPage(params.sessionId, await requireSimulatedCheckout(request));
}

export async function action({ request, params }: Route.ActionArgs) {
  return runSimulatedOutcome(request, params.sessionId, await requireSimulatedCheckout(request));
}

export default function SimulatedCheckout({ loaderData, actionData }: Route.ComponentProps) {
  return <SimulatedCheckoutPage page={loaderData} answer={actionData} />;
}
