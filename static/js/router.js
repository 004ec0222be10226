// The one place where a server message finds its handler: the page's own (view, error, pong)
// and each feature's `onMessage` map (docs/client.md, "Features"), merged into one map by type.

export function messageRouter(own, features) {
  const handlers = { ...own };
  for (const feature of features) {
    for (const [type, handler] of Object.entries(feature.onMessage ?? {})) {
      if (Object.hasOwn(handlers, type)) throw new Error(`two handlers for "${type}" messages`);
      handlers[type] = handler;
    }
  }
  return (message) => handlers[message.type]?.(message);
}
