import { runService } from '@switchboard/platform'
import { audit } from './build.ts'

await runService(audit, process.env)
