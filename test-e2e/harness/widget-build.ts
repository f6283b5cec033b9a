import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { buildConsole, ROOT } from './console-build.ts'

/** where the gateway serves the widget from by default (WIDGET_DIR): widget.js and frame/ */
export const WIDGET_DIST = join(ROOT, 'apps/widget/dist')

/**
 * The widget's build the gateway serves. `npm test` builds it before tap (scripts/build-console.sh builds both apps);
 * a file run alone builds it when missing. Never rebuilt while present: other test files may be reading it.
 */
export async function ensureWidgetBuild() {
  if (!existsSync(join(WIDGET_DIST, 'widget.js')) || !existsSync(join(WIDGET_DIST, 'frame/index.html')))
    await buildConsole()
  return WIDGET_DIST
}
