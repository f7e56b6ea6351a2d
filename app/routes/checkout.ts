import { redirect } from "react-router";
import type { Route } from "./+types/checkout";
import { startCheckout } from "~/features/payments/checkout.server";

export function loader() {
  return redirect("/precios");
}

export function action({ request }: Route.ActionArgs) {
  return startCheckout(request);
}
