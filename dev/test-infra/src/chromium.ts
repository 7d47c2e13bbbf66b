/**
 * @module chromium
 * Where the browser tests find Debian's Chromium and how they start it: one place for the chat
 * page's tests (services/web-e2e) and the exercises' view checks. Nothing is ever downloaded.
 */

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_INSTALL_HINT = 'install it with: sudo apt-get install -y chromium';

/**
 * Headless, and quiet on a closed network: without the background-networking, component-update
 * and first-run flags Chromium keeps opening connections of its own, which a machine with no
 * internet refuses many times a second. `--no-sandbox`: CI runs as root, where Chromium's own
 * sandbox cannot start.
 */
export const CHROMIUM_ARGS: readonly string[] = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
]);
