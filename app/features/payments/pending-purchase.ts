import { formatPrice, services, type Service } from "~/features/catalogue/services";
import { VAT_INCLUDED } from "~/features/catalogue/vat";

/** Local-storage key of the service a visitor chose to ask about first (spec section 3). */
export const PENDING_PURCHASE_KEY = "pending_purchase";

/** Announced on window when a pending purchase is saved while a contact form is on screen. */
export const PENDING_PURCHASE_EVENT = "pending-purchase";

export type PendingPurchase = { service: string; price: number; timestamp: number };

export function savePendingPurchase(storage: Storage, service: Service, now = Date.now()) {
  const pending: PendingPurchase = {
    service: service.name,
    price: service.priceCents / 100,
    timestamp: now,
  };
  storage.setItem(PENDING_PURCHASE_KEY, JSON.stringify(pending));
}

/** Reads and removes the pending purchase; undefined when absent or not a known service. */
export function takePendingPurchase(storage: Storage): Service | undefined {
  const raw = storage.getItem(PENDING_PURCHASE_KEY);
  if (raw === null) return undefined;
  storage.removeItem(PENDING_PURCHASE_KEY);
  try {
    const pending = JSON.parse(raw) as Partial<PendingPurchase>;
    return services.find((service) => service.name === pending.service);
  } catch {
    return undefined;
  }
}

/** How the contact form names the service chosen: 'Desarrollo Web · 799€ IVA incluido'. */
export function selectedServiceText(service: Service): string {
  return `${service.name} · ${formatPrice(service.priceCents)} ${VAT_INCLUDED}`;
}

/** The message pre-filled for a pending purchase. */
export function pendingPurchaseMessage(service: Service): string {
  return `Hola, estoy interesado en el servicio ${service.name} (${formatPrice(
    service.priceCents,
  )}). Antes de contratarlo me gustaría resolver algunas dudas.`;
}
