// DNS template records, domain restores and contact lookups of a registrar's Domain Management API.
package domainapi
