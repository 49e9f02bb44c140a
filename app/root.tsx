import { Links, Meta, Outlet, ScrollRestoration, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import styles from "~/styles/app.css?url";
import { readToast } from "~/toast.server";
import { ToastProvider } from "~/components/Toaster";
import { ConsentBanner } from "~/components/ConsentBanner";
import { ServiceWorkerRegistration } from "~/components/PushSetup";
import { AppErrorBoundary } from "~/components/AppErrorBoundary";
import { Scripts } from "~/components/Scripts";

export const links: LinksFunction = () => [
  // No preload of the font file: Chromium holds the first paint for a preloaded font (about 2 s in a measured
  // headless run, whatever font-display says), so the page waited for a font it can show text without. The
  // stylesheet's @font-face (font-display: swap) fetches it once text needs it (decision 023 addendum).
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/manifest.webmanifest" },
];

export const meta: MetaFunction = () => [{ title: "FootyCoach" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [user, { toast, clear }] = await Promise.all([context.user(), readToast(request, context.env)]);
  return data(
    {
      user: user && { id: user.id, email: user.email, username: user.username, role: user.role },
      consent: user?.analyticsConsent ?? null,
      toast,
      analytics: { measurementId: context.env.GA_MEASUREMENT_ID, scriptUrl: context.env.ANALYTICS_SCRIPT_URL },
    },
    clear ? { headers: { "Set-Cookie": clear } } : undefined,
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* Light and dark follow the system setting (app/styles/app/tokens.css). */}
        <meta name="color-scheme" content="light dark" />
        <meta name="theme-color" content="#15803d" media="(prefers-color-scheme: light)" />
        <meta name="theme-color" content="#06120c" media="(prefers-color-scheme: dark)" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  const { user, toast, consent, analytics } = useLoaderData<typeof loader>();
  return (
    <ToastProvider initial={toast}>
      <Outlet />
      <ServiceWorkerRegistration />
      <ConsentBanner
        signedIn={Boolean(user)}
        serverConsent={consent}
        measurementId={analytics.measurementId}
        scriptUrl={analytics.scriptUrl}
      />
      <HydratedMarker />
    </ToastProvider>
  );
}

/**
 * `<html data-hydrated>` once the page's JavaScript has taken over: what appears only then (the consent banner, live
 * countdowns) is on the page from that moment, so an audit or a script knows when the page it reads is complete.
 */
function HydratedMarker() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return null;
}

export function ErrorBoundary() {
  return <AppErrorBoundary />;
}
