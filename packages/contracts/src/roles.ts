/** User roles of spec section 6. The ARMI flag is separate from the role (spec section 3). */
export const ROLES = ['customer', 'super_user', 'categorizer_admin', 'armi_user', 'ux_customer'] as const;
export type Role = (typeof ROLES)[number];
