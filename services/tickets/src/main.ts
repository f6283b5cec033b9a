import { runService } from '@switchboard/platform'
import { tickets } from './build.ts'

await runService(tickets, process.env)
