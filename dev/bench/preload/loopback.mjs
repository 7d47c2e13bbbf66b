/**
 * Preloaded (`node --import`) into reference servers that bind every interface by default, such as
 * server-everything's `app.listen(PORT)`: a listen without a host binds 127.0.0.1 instead. The bench
 * only ever sends traffic to loopback, and nothing it starts should listen anywhere else.
 */
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function listenOnLoopback(...args) {
  const [first, second] = args;
  const portOnly = (typeof first === 'number' || typeof first === 'string') && typeof second !== 'string';
  if (portOnly) args.splice(1, 0, '127.0.0.1');
  return listen.apply(this, args);
};
