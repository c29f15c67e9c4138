export const colors = { primary: '#2F6F5E', danger: '#B3261E', text: '#1B1B1F' };
export const spacing = { xs: 4, sm: 8, md: 16, lg: 24 };
