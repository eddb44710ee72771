/**
 * What other rooms may use of the domains resource (they import this file, never its store): lookups by id
 * and name, the receiving team of a name, and the shapes the admin dashboard
 * shows. The tables stay in `store.ts`.
 */
export {
  capabilitiesOf,
  countDomains,
  domainIdByName,
  domainNameOf,
  domainNamesOf,
  findTeamDomain,
  listDomains,
  receivingTeamOf,
  recordsOf,
  senderDomain,
  type DomainRow,
} from './store.js';
export { latestClaimOf } from './claims.js';
