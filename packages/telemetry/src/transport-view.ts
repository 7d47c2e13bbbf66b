/**
 * @module transport-view
 * A view of an SDK transport with some members replaced: `send`, and the callbacks the SDK sets on
 * it (`onmessage`, `onclose`). Everything else (`sessionId`, `finishAuth`, `instanceof`) is the
 * transport's own, and methods run with the transport itself as `this`, so its private fields work.
 */

export interface TransportOverrides {
  send: (message: unknown, ...rest: unknown[]) => Promise<void>;
  /** Given each callback the SDK assigns, returns the one to store instead. */
  wrapCallback?: (property: 'onmessage' | 'onclose', callback: (...args: never[]) => unknown) => unknown;
}

export function transportView<T extends object>(transport: T, overrides: TransportOverrides): T {
  return new Proxy(transport, {
    get(target, property) {
      if (property === 'send') return overrides.send;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set(target, property, value) {
      const wrapped =
        (property === 'onmessage' || property === 'onclose') &&
        typeof value === 'function' &&
        overrides.wrapCallback
          ? overrides.wrapCallback(property, value)
          : value;
      return Reflect.set(target, property, wrapped, target);
    },
  });
}
