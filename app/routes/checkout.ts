import type { Route } from "./+types/checkout";
import { checkoutDefaults, startCheckout } from "~/features/payments/checkout.server";

export function loader({ request }: Route.LoaderArgs) {
  return checkoutDefaults(request);
}

export function action({ request }: Route.ActionArgs) {
  return startCheckout(request);
}
