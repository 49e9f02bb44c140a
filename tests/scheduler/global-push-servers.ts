import type { TestProject } from "vitest/node";
import { startLocalFcmService } from "../support/local-fcm-service";
import { startLocalPushService } from "../support/local-push-service";
import { FCM_SERVER_PORT, FCM_TEST_PROJECT, WEB_PUSH_SERVER_PORT } from "./ports";

/**
 * Global setup of the scheduler tests: the local Web Push service and the local FCM server on their fixed ports
 * (the Worker's bindings point at them before this runs). Keys come from vitest.scheduler.config.ts, which made
 * the run's VAPID pair and FCM service account.
 */
declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the local Web Push service (control API under /__control). */
    webPushServiceUrl: string;
    /** Base URL of the local FCM server (token endpoint at /token, control API under /__control). */
    fcmServiceUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const fcmPublicKey = process.env.SCHEDULER_TEST_FCM_PUBLIC_KEY;
  const serviceAccount = process.env.SCHEDULER_TEST_FCM_SERVICE_ACCOUNT;
  if (!fcmPublicKey || !serviceAccount) throw new Error("run with vitest.scheduler.config.ts: it makes the FCM test key");
  const { client_email } = JSON.parse(serviceAccount) as { client_email: string };
  const webPush = await startLocalPushService({
    port: WEB_PUSH_SERVER_PORT,
    expectedVapidPublicKey: process.env.SCHEDULER_TEST_VAPID_PUBLIC_KEY,
  });
  const fcm = await startLocalFcmService({
    port: FCM_SERVER_PORT,
    publicKeyPem: fcmPublicKey,
    clientEmail: client_email,
    project: FCM_TEST_PROJECT,
  }).catch(async (error: unknown) => {
    await webPush.close();
    throw error;
  });
  project.provide("webPushServiceUrl", webPush.url);
  project.provide("fcmServiceUrl", fcm.url);
  return async () => {
    await Promise.all([webPush.close(), fcm.close()]);
  };
}
