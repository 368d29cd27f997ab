import type { Api } from './api'
import { createHttpApi } from './http'
import { createWailsApi, wailsBindings, type WailsWindow } from './wails'

// createApi is apart from api.ts: both transports import api.ts for the Api
// they make and its errors, so api.ts imports neither.

/** createApi picks the transport of the place the UI runs in. */
export function createApi(win: WailsWindow & { location: Location } = window): Api {
  if (wailsBindings(win)) return createWailsApi(win)
  return createHttpApi(win.location.origin, (input, init) => fetch(input, init))
}
