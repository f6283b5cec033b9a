import { runService } from '@switchboard/platform'
import { identity } from './build.ts'

await runService(identity, process.env)
