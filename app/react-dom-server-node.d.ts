// React's Node build of the streaming renderer, used by entry.server.tsx. @types/react-dom types it only
// as part of "react-dom/server"; this file has no imports so the declaration is global.
declare module "react-dom/server.node" {
  export { renderToPipeableStream } from "react-dom/server";
}
