/* The messaging service worker of the FCM path (decision 014), registered by app/lib/push.client.ts under the
 * Firebase SDK's own scope (/firebase-cloud-messaging-push-scope) and passed to getToken. FCM delivers through
 * the browser's Push API, so the pushes arrive here as plain `push` events with FCM's payload
 * ({notification, data, fcmOptions}); the handlers are those of /sw.js, so both paths show the same notification
 * and open the same link. No SDK code runs here (nothing is loaded from a third-party origin). */
/* global importScripts */
importScripts("/sw.js");
