import type { SubmissionsService } from './submissions/service.server'

export interface Farm {
  name: string
  product: string
}

declare module '@remix-run/node' {
  interface AppLoadContext {
    farm: Farm
    submissions: SubmissionsService
  }
}
