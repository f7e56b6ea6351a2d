import type { Route } from "./+types/mi-cuenta";
import { SecondFactorSection } from "~/features/accounts/second-factor-pages";
import { AccountPage } from "~/features/customer-area/account-page";
import { accountOverview } from "~/features/customer-area/account-overview.server";
import { requireCustomer } from "~/features/identity/session.server";
import { AccountDataSection } from "~/features/privacy/account-data-section";
import { privatePageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, {
    title: "Mi Cuenta",
    description: "Tu área de cliente.",
    path: "/mi-cuenta",
  });

export async function loader({ request }: Route.LoaderArgs) {
  return accountOverview(await requireCustomer(request), new URL(request.url));
}

export default function Account({ loaderData }: Route.ComponentProps) {
  return (
    <AccountPage
      overview={loaderData}
      settings={
        <>
          <SecondFactorSection enabled={loaderData.secondFactor} />
          <AccountDataSection />
        </>
      }
    />
  );
}
