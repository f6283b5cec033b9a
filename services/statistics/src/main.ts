import { runService } from '@switchboard/platform'
import { statistics } from './build.ts'

await runService(statistics, process.env)
