/**
 * Events plugins emit to hosts, by name, with their payloads. Empty here: the core knows no plugin.
 * Each plugin adds its own events by module augmentation of this interface, so `context.emit` and
 * `executor.on` are typed for every plugin that is part of the program.
 *
 * @example
 * declare module "../../core/plugin-events.js" {
 *   interface PluginEvents {
 *     "server:connected": { server: string; tools: number };
 *   }
 * }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface PluginEvents {}
