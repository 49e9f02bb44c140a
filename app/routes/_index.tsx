import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";

/** "/" decides on the server, so nothing renders before the session check. */
export async function loader({ context }: LoaderFunctionArgs) {
  throw redirect((await context.user()) ? "/dashboard" : "/login");
}
