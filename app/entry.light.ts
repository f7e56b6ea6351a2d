/**
 * The one script of a light page (decision 038): an anonymous visitor's public page is server
 * HTML that works without JavaScript; this adds what JavaScript can, in plain DOM code shared
 * with the React pages where they have the same part (menu, banner, reading progress).
 */
import { reportPageView } from "~/features/analytics/track";
import { controlCookieBanner } from "~/features/consent/cookie-banner-controller";
import { controlContactForm } from "~/features/contact/contact-form-controller";
import { enhanceMobileMenu } from "~/features/layout/mobile-menu";
import { trackScrollProgress } from "~/features/layout/scroll-progress-tracker";
import { controlPurchaseDialog } from "~/features/payments/purchase-dialog-controller";
import { showToastFromDocument } from "~/ui/toast";

enhanceMobileMenu(document);
controlCookieBanner(document);
trackScrollProgress(document);
controlPurchaseDialog(document);
controlContactForm(document);
showToastFromDocument(document);
reportPageView(location.pathname, document.referrer);
// Browser tests wait for this mark, as a person waits for a page that answers.
document.documentElement.dataset.hydrated = "true";
