import { data } from "react-router";
import { getDatabaseHandle } from "../db/database.server";

/** How long a visitor is asked to wait while the database is away (the Retry-After header). */
export const MAINTENANCE_RETRY_AFTER_SECONDS = 30;

/** The status of the maintenance page: the service is away for a while, not broken. */
export const MAINTENANCE_STATUS = 503;

/** The thrown answer the root's error boundary shows as the maintenance page. */
export function maintenanceAnswer() {
  return data("maintenance", {
    status: MAINTENANCE_STATUS,
    headers: { "Retry-After": String(MAINTENANCE_RETRY_AFTER_SECONDS) },
  });
}

async function databaseAnswers(): Promise<boolean> {
  try {
    await getDatabaseHandle().ping();
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs a read that needs the database (a session lookup). When it fails and the database does
 * not answer a ping either, the page is in maintenance (503), neither an error (500) nor a
 * visitor without a session (a redirect to sign in); any other failure is thrown as it came.
 */
export async function unlessDatabaseAway<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (await databaseAnswers()) throw error;
    throw maintenanceAnswer();
  }
}
