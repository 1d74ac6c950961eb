export { dashboardConfig } from './dashboard-config.js';
export type {
  DashboardConfig,
  DashboardServerRules,
  DashboardSignIn,
  FirebaseSignInProvider,
  FirebaseWebConfig,
  ServerIdentity,
} from './dashboard-config.js';
export { dashboardHeaders } from './dashboard-headers.js';
export { dashboardPage } from './dashboard-page.js';
export { dashboardStaticDir } from './static-dir.js';
