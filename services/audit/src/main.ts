import { createRootLogger } from '@switchboard/platform'
import closeWithGrace from 'close-with-grace'
import { build } from './build.ts'
import { loadConfig } from './config.ts'

const config = loadConfig(process.env)
const logger = createRootLogger({ level: config.log_level })
const app = await build(config, { logger })
await app.listen({ host: config.host, port: config.port })
closeWithGrace({ delay: 10_000 }, async ({ err }) => {
  if (err) app.log.error({ err }, 'closing after error')
  await app.close()
})
