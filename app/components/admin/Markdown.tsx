import ReactMarkdown from "react-markdown";

interface Node {
  type: string;
  value?: string;
  children?: Node[];
}

/**
 * Raw HTML in the Markdown stays text: every `raw` node becomes a `text` node, so `<script>` shows as
 * written and never runs (no rehype-raw, no dangerouslySetInnerHTML anywhere).
 */
function rehypeRawAsText() {
  return (tree: Node) => {
    const walk = (node: Node) => {
      if (node.type === "raw") node.type = "text";
      node.children?.forEach(walk);
    };
    walk(tree);
  };
}

const safeUrl = (url: string) => (/^(https?:|mailto:|\/|#)/i.test(url.trim()) ? url : "");

export function Markdown({ children }: { children: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown rehypePlugins={[rehypeRawAsText]} urlTransform={safeUrl}>
        {children}
      </ReactMarkdown>
    </div>
  );
}
