import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createApi } from './api/transport'
import { pageDrawn } from './lib/drawn'
import { createAppStore } from './store/app'
import { createFrame } from './store/run'
import { App } from './ui/App'
import { StoreContext } from './ui/appContext'
import './styles.css'
import './run.css'

function localStore(): Storage | null {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

const store = createAppStore({ api: createApi(), storage: localStore(), browserLanguages: navigator.languages ?? [navigator.language], frame: createFrame(pageDrawn) })
void store.start()

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <StoreContext.Provider value={store}>
      <App />
    </StoreContext.Provider>
  </StrictMode>,
)
