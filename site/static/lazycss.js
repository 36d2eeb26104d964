import{ROOT}from"./common.js";let loaded=null;export function extraCss(){if(!loaded){loaded=new Promise((done)=>{const l=Object.assign(document.createElement("link"),{rel:"stylesheet",href:`${ROOT}static/extra.css`});l.onload=l.onerror=()=>done();document.head.append(l);});}
return loaded;}
